tracekit chain tests/data/wet/pass/foo1.wet 1870:0 2118:0
