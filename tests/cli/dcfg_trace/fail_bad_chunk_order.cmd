tracekit check tests/data/dcfg_trace/fail/bad_chunk_order.trace.json
