tracekit slice tests/data/wet/pass/foo1.wet --criterion 2120:0 --depth 1
