tracekit check tests/data/xray/fail/version-9.fdr
