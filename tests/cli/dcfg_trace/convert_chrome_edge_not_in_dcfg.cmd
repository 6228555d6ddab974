tracekit convert --to chrome --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json tests/data/dcfg_trace/fail/bad_edge_not_in_dcfg.trace.json
