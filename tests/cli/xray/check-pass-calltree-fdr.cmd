tracekit check tests/data/xray/pass/calltree.fdr
