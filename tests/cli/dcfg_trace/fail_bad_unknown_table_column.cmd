tracekit check tests/data/dcfg_trace/fail/bad_unknown_table_column.trace.json
