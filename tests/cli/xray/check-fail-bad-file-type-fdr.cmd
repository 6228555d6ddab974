tracekit check --from xray tests/data/xray/fail/bad-file-type.fdr
