tracekit check tests/data/xray/fail/missing-new-buffer.fdr
