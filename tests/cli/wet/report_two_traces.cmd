tracekit report tests/data/wet/pass/foo1.wet tests/data/wet/pass/tiny.wet
