# with --dcfg the edges are checked against it in every listing
tracekit decode --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json --what edges tests/data/dcfg_trace/fail/bad_edge_not_in_dcfg.trace.json
