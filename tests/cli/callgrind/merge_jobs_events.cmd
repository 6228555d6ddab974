tracekit merge -j 2 tests/data/callgrind/pass/call-tree.out tests/data/callgrind/pass/spec-features.out tests/data/callgrind/pass/demo-cache.out
