tracekit report --format json tests/data/wet/pass/foo1.history
