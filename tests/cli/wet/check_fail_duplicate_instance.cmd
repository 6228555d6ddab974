tracekit check tests/data/wet/fail/duplicate_instance.wet
