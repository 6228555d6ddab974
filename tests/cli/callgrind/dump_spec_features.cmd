tracekit dump tests/data/callgrind/pass/spec-features.out
