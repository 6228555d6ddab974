tracekit extract tests/data/xray/pass/mtpool.fdr
