tracekit convert tests/data/callgrind/pass/spec-features.out
