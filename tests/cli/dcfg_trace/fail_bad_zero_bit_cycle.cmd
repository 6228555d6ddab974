tracekit check tests/data/dcfg_trace/fail/bad_zero_bit_cycle.trace.json
