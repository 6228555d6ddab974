tracekit report tests/data/dcfg_trace/pass/gen11.intel.trace.json tests/data/dcfg_trace/pass/gen11.intel.trace.json
