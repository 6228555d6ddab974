tracekit slice tests/data/wet/pass/foo1.wet --criterion 2120:0 --format json
