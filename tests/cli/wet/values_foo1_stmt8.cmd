tracekit values tests/data/wet/pass/foo1.wet 2118
