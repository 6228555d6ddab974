tracekit report tests/data/xray/pass/mtpool.fdr -m tests/data/xray/bin/mtpool --per-thread --top 12
