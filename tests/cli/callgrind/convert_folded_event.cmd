tracekit convert --to folded --event Dr tests/data/callgrind/pass/call-tree.out
