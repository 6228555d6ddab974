tracekit report -j 3 --top 5 tests/data/callgrind/pass/threads-sep.out-01 tests/data/callgrind/fail/cut-summary.out tests/data/callgrind/fail/bad-jcnd.out tests/data/callgrind/pass/threads-sep.out-02
