tracekit check tests/data/xray/fail/custom-event-past-buffer.fdr
