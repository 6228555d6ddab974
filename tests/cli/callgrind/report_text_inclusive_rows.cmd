tracekit report --by=line --inclusive tests/data/callgrind/pass/call-tree.out
