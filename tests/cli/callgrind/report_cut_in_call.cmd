tracekit report tests/data/callgrind/fail/cfn-at-eof.out
