tracekit convert --to json tests/data/xray/pass/calltree-typed.fdr | head -12
