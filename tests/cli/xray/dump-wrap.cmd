tracekit dump tests/data/xray/pass/calltree.fdr | grep -A2 tsc-wrap
