tracekit check -v tests/data/xray/pass/calltree-typed.fdr
