tracekit check tests/data/xray/fail/call-arg-without-enter.fdr
