tracekit convert --to dot --loop 5 tests/data/dcfg/pass/minimal.dcfg.json
