tracekit convert --to wet tests/data/wet/pass/nodebug_spacing.wet
