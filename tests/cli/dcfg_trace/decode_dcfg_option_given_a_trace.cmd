tracekit decode --dcfg tests/data/dcfg_trace/pass/gen11.level9.trace.json tests/data/dcfg_trace/pass/gen11.level9.trace.json
