tracekit report --format=json --top 3 tests/data/callgrind/pass/demo-cache.out
