tracekit check tests/data/dcfg_trace/fail/bad_duplicate_thread.trace.json
