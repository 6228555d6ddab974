tracekit decode tests/data/dcfg_trace/pass/gen11.dcfg.json
