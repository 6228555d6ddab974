tracekit diff --format=json --top 2 tests/data/callgrind/pass/demo-every.out tests/data/callgrind/pass/demo-every.out.1
