tracekit report --inclusive --top 12 tests/data/callgrind/pass/demo-recs.out
