tracekit check tests/data/dcfg_trace/fail/bad_trailing_garbage.trace.json
