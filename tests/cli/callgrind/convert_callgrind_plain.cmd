tracekit convert --to callgrind --no-compress tests/data/callgrind/pass/spec-features.out
