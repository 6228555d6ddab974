tracekit report --format=csv --by=file --top 5 tests/data/callgrind/pass/demo-jumps.out
