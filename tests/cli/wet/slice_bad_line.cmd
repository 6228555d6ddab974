tracekit slice tests/data/wet/pass/foo1.wet --criterion nowhere.c:3
