tracekit report --thread x6 tests/data/xray/pass/mtpool.fdr
