tracekit check tests/data/callgrind/pass/demo-default.out tests/data/callgrind/pass/demo-cache.out
