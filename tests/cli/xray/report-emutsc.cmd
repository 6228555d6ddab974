tracekit report tests/data/xray/pass/calltree-emutsc.fdr --top 5
