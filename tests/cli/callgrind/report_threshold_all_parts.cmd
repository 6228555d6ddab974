tracekit report --threshold 5 tests/data/callgrind/pass/demo-combined.out
