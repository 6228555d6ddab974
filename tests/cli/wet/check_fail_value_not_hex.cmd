tracekit check tests/data/wet/fail/value_not_hex.wet
