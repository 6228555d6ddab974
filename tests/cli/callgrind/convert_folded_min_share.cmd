tracekit convert --to folded --min-share 5 tests/data/callgrind/pass/demo-default.out
