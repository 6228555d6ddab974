tracekit report tests/data/wet/pass/foo1.wet
