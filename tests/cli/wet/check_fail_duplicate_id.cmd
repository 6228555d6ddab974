tracekit check tests/data/wet/fail/duplicate_id.wet
