tracekit convert --to wet-history tests/data/wet/pass/foo1.wet
