tracekit diff tests/data/xray/pass/calltree.fdr tests/data/xray/pass/calltree.basic tests/data/xray/pass/calltree.fdr
