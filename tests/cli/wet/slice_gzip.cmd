tracekit slice tests/data/wet/pass/foo1.wet.gz --criterion 2118:0
