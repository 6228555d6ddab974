tracekit convert --to callgrind tests/data/callgrind/pass/spec-features.out
