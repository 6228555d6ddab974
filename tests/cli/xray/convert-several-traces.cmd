tracekit convert --to folded --per-thread tests/data/xray/pass/calltree.fdr tests/data/xray/pass/mtpool.fdr
