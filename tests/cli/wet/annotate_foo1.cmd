tracekit annotate --criterion foo1.c:8 --source-dir tests/data/wet/pass tests/data/wet/pass/foo1.wet
