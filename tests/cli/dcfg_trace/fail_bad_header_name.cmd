tracekit check tests/data/dcfg_trace/fail/bad_header_name.trace.json
