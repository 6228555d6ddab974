tracekit info tests/data/xray/pass/calltree-emutsc.fdr
