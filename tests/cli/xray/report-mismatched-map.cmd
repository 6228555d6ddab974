tracekit report tests/data/xray/pass/calltree.fdr -m tests/data/xray/bin/mtpool --top 3
