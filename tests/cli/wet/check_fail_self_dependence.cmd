tracekit check tests/data/wet/fail/self_dependence.wet
