tracekit check tests/data/callgrind/pass/spec-features.out
