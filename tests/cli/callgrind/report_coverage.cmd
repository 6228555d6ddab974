# the text table of self costs stops where its rows cover 99 % of the first sort event (callgrind_annotate's default threshold)
tracekit report --by=line tests/data/callgrind/pass/call-tree.out
tracekit report --by=line --coverage 80 tests/data/callgrind/pass/call-tree.out
# JSON and CSV list every row unless asked
tracekit report --by=line --format=csv tests/data/callgrind/pass/call-tree.out
tracekit report --by=line --format=csv --coverage 70 tests/data/callgrind/pass/call-tree.out
