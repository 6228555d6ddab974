tracekit check -v tests/data/xray/pass/calltree.fdr -m tests/data/xray/bin/mtpool
