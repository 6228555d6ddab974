tracekit check tests/data/xray/fail/mtpool-cut.fdr
