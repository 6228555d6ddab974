tracekit check --from xray tests/data/xray/fail/version-9.fdr
