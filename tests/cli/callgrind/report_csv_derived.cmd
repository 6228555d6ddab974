tracekit report --format=csv tests/data/callgrind/pass/spec-features.out
