tracekit check tests/data/wet/fail/dangling_id.wet
