tracekit check tests/data/wet/fail/negative_instance.wet
