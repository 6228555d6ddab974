tracekit report --by=line --top 5 tests/data/callgrind/pass/demo-default.out
