tracekit check tests/data/wet/fail/many_reference_errors.wet
