tracekit merge --keep-parts tests/data/callgrind/pass/threads-sep.out-01 tests/data/callgrind/pass/threads-sep.out-02 | tracekit info -
