tracekit report --top 3 tests/data/callgrind/fail/cut-summary.out
