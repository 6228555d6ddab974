tracekit check tests/data/dcfg_trace/fail/bad_negative.trace.json
