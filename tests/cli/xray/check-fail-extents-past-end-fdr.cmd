tracekit check tests/data/xray/fail/extents-past-end.fdr
