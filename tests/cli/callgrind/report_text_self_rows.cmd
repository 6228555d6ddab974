tracekit report --by=line --coverage 100 tests/data/callgrind/pass/call-tree.out
