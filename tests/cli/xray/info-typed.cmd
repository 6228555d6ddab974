tracekit info tests/data/xray/pass/calltree-typed.fdr
