tracekit info tests/data/wet/pass/foo1.history
