tracekit check tests/data/wet/fail/count_size_mismatch.wet
