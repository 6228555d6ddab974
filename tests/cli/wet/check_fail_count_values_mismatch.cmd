tracekit check tests/data/wet/fail/count_values_mismatch.wet
