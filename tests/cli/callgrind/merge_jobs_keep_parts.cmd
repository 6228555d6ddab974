tracekit merge -j 3 --keep-parts tests/data/callgrind/pass/spec-features.out tests/data/callgrind/pass/call-tree.out tests/data/callgrind/pass/spec-features.out
