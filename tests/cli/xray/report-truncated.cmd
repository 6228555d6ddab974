tracekit report tests/data/xray/fail/truncated-record.fdr
