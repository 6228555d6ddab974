tracekit check --from xray tests/data/xray/fail/truncated-header.fdr
