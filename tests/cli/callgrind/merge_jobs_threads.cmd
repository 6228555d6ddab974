tracekit merge -j 2 tests/data/callgrind/pass/threads-sep.out-02 tests/data/callgrind/pass/threads-sep.out-03 tests/data/callgrind/pass/threads-sep.out tests/data/callgrind/pass/threads-sep.out-02
