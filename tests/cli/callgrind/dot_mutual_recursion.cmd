tracekit convert --to dot tests/data/callgrind/pass/mutual.out
