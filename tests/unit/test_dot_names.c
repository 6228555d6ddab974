/* Names in pictures: tk_short_name (dot call graphs, flame graphs). */
#include "tk_test.h"
#include "tracekit/tracekit.h"

static void check(const char *in, const char *want)
{
    char buf[256];
    tk_short_name(in, buf, sizeof buf);
    if (strcmp(buf, want) != 0) {
        fprintf(stderr, "  %s -> %s, expected %s\n", in, buf, want);
        TK_CHECK(0);
    }
}

static void test_short_names(void)
{
    check("main", "main");
    check("(below main)", "(below main)");
    check("fib'2", "fib'2");
    check("std::vector<int, std::allocator<int> >::push_back(int const&)",
          "std::vector<>::push_back()");
    check("void std::__introsort_loop<__gnu_cxx::__normal_iterator<int*, std::vector<int> >, long>"
          "(__gnu_cxx::__normal_iterator<int*, std::vector<int> >, long) const",
          "void std::__introsort_loop<>()");
    check("std::ostream::operator<<(int)", "std::ostream::operator<<()");
    check("bool operator< <int>(X<int> const&, X<int> const&)", "bool operator< <>()");
    check("Foo::operator()(int) const", "Foo::operator()()");
    check("Foo::operator()", "Foo::operator()");
    check("std::function<void (int)>::operator()(int) const", "std::function<>::operator()()");
    check("(anonymous namespace)::f(int)", "(anonymous namespace)::f(int)");
    check("ns::g(int)", "ns::g()");
    char small[8];
    tk_short_name("abcdefghijkl", small, sizeof small);
    TK_CHECK(strcmp(small, "abcdefg") == 0);
}

TK_TEST_MAIN(TK_CASE(test_short_names))
