tracekit info tests/data/dcfg/pass/minimal.dcfg.json
