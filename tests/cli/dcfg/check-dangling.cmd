tracekit check tests/data/dcfg/fail/dangling-edge.dcfg.json
