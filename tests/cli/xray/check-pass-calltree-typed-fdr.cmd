tracekit check tests/data/xray/pass/calltree-typed.fdr
