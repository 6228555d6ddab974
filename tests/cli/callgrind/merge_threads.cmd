tracekit merge tests/data/callgrind/pass/threads-sep.out-01 tests/data/callgrind/pass/threads-sep.out-02 tests/data/callgrind/pass/threads-sep.out-03 | tracekit report --top 5 -
