tracekit check tests/data/wet/fail/truncated_block.wet
