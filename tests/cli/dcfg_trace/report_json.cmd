tracekit report --format json --top 2 --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json tests/data/dcfg_trace/pass/gen11.level9.trace.json
