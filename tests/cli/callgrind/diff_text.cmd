tracekit diff --top 8 tests/data/callgrind/pass/demo-default.out tests/data/callgrind/pass/demo-recs.out
