tracekit check tests/data/dcfg_trace/fail/bad_nesting.trace.json
