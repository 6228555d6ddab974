tracekit convert --to folded -o tests/data/xray/pass/calltree.fdr tests/data/xray/pass/calltree.fdr
