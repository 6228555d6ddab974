tracekit report --unit min tests/data/xray/pass/calltree.fdr
tracekit convert --to folded --unit ms tests/data/xray/pass/calltree.fdr
