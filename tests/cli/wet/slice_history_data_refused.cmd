tracekit slice tests/data/wet/pass/foo1.history --criterion 0x8048242#0 --deps data
