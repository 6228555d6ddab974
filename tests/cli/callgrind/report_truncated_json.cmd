tracekit report --format json --top 1 tests/data/callgrind/fail/cut-summary.out
