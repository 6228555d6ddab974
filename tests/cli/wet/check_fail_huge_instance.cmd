tracekit check tests/data/wet/fail/huge_instance.wet
