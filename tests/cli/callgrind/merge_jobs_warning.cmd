tracekit merge -j 2 tests/data/callgrind/pass/threads-sep.out-02 tests/data/callgrind/fail/cut-summary.out tests/data/callgrind/pass/threads-sep.out-03
