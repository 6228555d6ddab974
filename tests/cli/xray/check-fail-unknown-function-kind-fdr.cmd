tracekit check tests/data/xray/fail/unknown-function-kind.fdr
