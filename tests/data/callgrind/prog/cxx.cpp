#include <map>
#include <string>
#include <vector>
#include <cstdio>
namespace {
std::string make_key(int i) { return "k" + std::to_string(i); }
}
template <typename T, int N> struct Acc {
    T total{};
    void add(const T &x) { total += x * N; }
};
int main()
{
    std::map<std::string, std::vector<int>> m;
    for (int i = 0; i < 50; i++) m[make_key(i % 10)].push_back(i);
    Acc<long, 3> a;
    auto f = [&](int x) { a.add(x); };
    for (auto &kv : m) for (int x : kv.second) f(x);
    std::printf("%ld\n", a.total);
    return 0;
}
