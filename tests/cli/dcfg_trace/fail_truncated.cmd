tracekit check tests/data/dcfg_trace/fail/truncated.trace.json
