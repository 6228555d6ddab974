tracekit check tests/data/dcfg_trace/pass/gen11.intel.trace.json tests/data/dcfg_trace/fail/bad_float.trace.json
