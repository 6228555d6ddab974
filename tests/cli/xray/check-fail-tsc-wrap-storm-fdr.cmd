tracekit check tests/data/xray/fail/tsc-wrap-storm.fdr
