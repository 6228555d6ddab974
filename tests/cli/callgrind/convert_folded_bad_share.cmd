tracekit convert --to folded --min-share 200 tests/data/callgrind/pass/call-tree.out
