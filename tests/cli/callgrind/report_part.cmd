tracekit report --part 2 --top 5 tests/data/callgrind/pass/demo-combined.out
