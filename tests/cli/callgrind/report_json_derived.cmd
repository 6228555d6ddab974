tracekit report --format=json --inclusive tests/data/callgrind/pass/spec-features.out
