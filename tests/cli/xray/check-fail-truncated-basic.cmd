tracekit check tests/data/xray/fail/truncated.basic
