tracekit convert --to json tests/data/wet/pass/foo1.wet
