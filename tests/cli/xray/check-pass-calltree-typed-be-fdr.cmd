tracekit check tests/data/xray/pass/calltree-typed-be.fdr
