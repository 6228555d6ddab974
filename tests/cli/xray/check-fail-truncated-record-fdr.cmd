tracekit check tests/data/xray/fail/truncated-record.fdr
