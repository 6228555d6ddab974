tracekit check --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json tests/data/dcfg_trace/fail/bad_instr_count.trace.json
