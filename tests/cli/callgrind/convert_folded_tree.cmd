tracekit convert --to folded tests/data/callgrind/pass/call-tree.out
