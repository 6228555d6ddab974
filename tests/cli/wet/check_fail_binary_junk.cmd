tracekit check tests/data/wet/fail/binary_junk.wet
