tracekit values tests/data/wet/pass/foo1.wet foo1.c:4
