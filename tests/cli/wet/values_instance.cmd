tracekit values tests/data/wet/pass/nodebug_spacing.wet 10:1
