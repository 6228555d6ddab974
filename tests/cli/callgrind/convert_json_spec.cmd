tracekit convert --to json tests/data/callgrind/pass/spec-features.out
