tracekit report -j 2 --top 5 tests/data/callgrind/pass/demo-default.out tests/data/callgrind/pass/demo-cache.out
