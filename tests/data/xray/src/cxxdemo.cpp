// C++ XRay test program: namespaces, templates, overloads, a class method and an operator, so
// that the instrumentation map has mangled names to demangle.
#include <cstdio>
#include <vector>

namespace shapes {
struct Point {
    long x, y;
    [[gnu::noinline]] Point operator+(const Point &o) const { return {x + o.x, y + o.y}; }
};

template <typename T> [[gnu::noinline]] T accumulate(const std::vector<T> &v)
{
    T sum{};
    for (const T &e : v)
        sum = sum + e;
    return sum;
}

[[gnu::noinline]] long area(long w, long h) { return w * h; }
[[gnu::noinline]] double area(double r) { return 3.14159 * r * r; }
} // namespace shapes

int main()
{
    std::vector<shapes::Point> pts{{1, 2}, {3, 4}, {5, 6}};
    std::vector<long> ns{1, 2, 3};
    shapes::Point p = shapes::accumulate(pts);
    std::printf("%ld %ld %ld %ld %.1f\n", p.x, p.y, shapes::accumulate(ns), shapes::area(2, 3),
                shapes::area(1.0));
    return 0;
}
