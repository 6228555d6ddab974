tracekit convert --to json tests/data/xray/pass/calltree-typed.fdr | sed -n 1,12p
