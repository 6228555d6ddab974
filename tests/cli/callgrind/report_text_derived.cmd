tracekit report --inclusive tests/data/callgrind/pass/spec-features.out
