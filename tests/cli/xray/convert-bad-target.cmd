tracekit convert --to pprof tests/data/xray/pass/calltree.fdr
