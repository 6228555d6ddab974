tracekit report --by=line tests/data/callgrind/pass/call-tree.out
