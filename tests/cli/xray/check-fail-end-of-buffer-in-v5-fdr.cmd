tracekit check tests/data/xray/fail/end-of-buffer-in-v5.fdr
