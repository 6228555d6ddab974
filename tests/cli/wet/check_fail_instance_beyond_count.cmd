tracekit check tests/data/wet/fail/instance_beyond_count.wet
