tracekit annotate tests/data/callgrind/pass/spec-features.out
