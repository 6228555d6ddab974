tracekit chain tests/data/wet/pass/foo1.wet 2120:0 1870:0
