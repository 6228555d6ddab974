tracekit decode tests/data/dcfg_trace/pass/gen11.level9.trace.json | cmp - tests/data/dcfg_trace/pass/gen11.edges && echo same
