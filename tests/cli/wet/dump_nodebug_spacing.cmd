tracekit dump tests/data/wet/pass/nodebug_spacing.wet
