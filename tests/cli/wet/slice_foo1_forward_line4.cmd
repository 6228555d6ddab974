tracekit slice tests/data/wet/pass/foo1.wet --criterion foo1.c:4 --forward --lines
