tracekit instr-map tests/data/xray/pass/mtpool.fdr
