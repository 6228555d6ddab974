tracekit report --format json --top 3 tests/data/dcfg_trace/pass/gen11.level9.trace.json
