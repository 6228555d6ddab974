# --strip: C++ names without template arguments and parameter lists (gprof2dot --strip)
tracekit report --strip --inclusive -n 100 tests/data/callgrind/pass/cxx-default.out | grep ' Shape\| std::' | sed -n 1,5p
tracekit report --inclusive -n 100 tests/data/callgrind/pass/cxx-default.out | grep ' Shape\| std::' | sed -n 1,5p
