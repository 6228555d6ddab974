tracekit check tests/data/wet/fail/value_too_wide.wet
