tracekit report --part 9 tests/data/callgrind/pass/demo-default.out
