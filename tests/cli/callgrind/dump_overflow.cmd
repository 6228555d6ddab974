tracekit dump tests/data/callgrind/fail/overflow-decimal.out
