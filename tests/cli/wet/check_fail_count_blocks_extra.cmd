tracekit check tests/data/wet/fail/count_blocks_extra.wet
