tracekit chain tests/data/wet/pass/foo1.wet 2114:0 2118:0
