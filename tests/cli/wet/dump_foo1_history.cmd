tracekit dump tests/data/wet/pass/foo1.history
