tracekit report --coverage 0 tests/data/callgrind/pass/call-tree.out
