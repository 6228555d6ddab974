tracekit report -j 0 tests/data/callgrind/pass/mutual.out tests/data/callgrind/pass/mutual.out
