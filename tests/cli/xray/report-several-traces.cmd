tracekit report tests/data/xray/pass/mtpool.fdr tests/data/xray/pass/calltree.fdr --per-thread --format json -j 2
