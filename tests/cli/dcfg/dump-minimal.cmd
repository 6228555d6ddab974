tracekit dump tests/data/dcfg/pass/minimal.dcfg.json
