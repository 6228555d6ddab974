tracekit check tests/data/xray/fail/unknown-metadata-kind.fdr
