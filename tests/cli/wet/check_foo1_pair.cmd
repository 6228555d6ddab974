tracekit check tests/data/wet/pass/foo1.wet tests/data/wet/pass/foo1.history
