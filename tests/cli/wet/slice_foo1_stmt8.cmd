tracekit slice tests/data/wet/pass/foo1.wet --criterion 2118:0
