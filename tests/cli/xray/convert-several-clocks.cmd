tracekit convert --to chrome tests/data/xray/pass/calltree.fdr tests/data/xray/pass/calltree-emutsc.fdr
