tracekit check tests/data/wet/fail/count_blocks_short.wet
