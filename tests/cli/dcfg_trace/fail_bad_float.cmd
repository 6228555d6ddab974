tracekit check tests/data/dcfg_trace/fail/bad_float.trace.json
