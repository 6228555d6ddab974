tracekit check tests/data/dcfg_trace/pass/warn_leftover_bits.trace.json
