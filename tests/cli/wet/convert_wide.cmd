tracekit convert --to wet tests/data/wet/pass/wide_values.wet
