tracekit convert --to folded tests/data/callgrind/pass/mutual-recs.out
