tracekit check tests/data/callgrind/fail/cut-summary.out tests/data/callgrind/fail/cfn-at-eof.out
