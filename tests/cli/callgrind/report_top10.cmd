tracekit report --top 10 tests/data/callgrind/pass/demo-default.out
