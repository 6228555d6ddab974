tracekit info -v tests/data/xray/pass/calltree-typed.fdr
