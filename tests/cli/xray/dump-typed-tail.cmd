tracekit dump tests/data/xray/pass/calltree-typed.fdr | tail -5
