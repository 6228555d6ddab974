tracekit check tests/data/dcfg_trace/fail/bad_extra_key.trace.json
