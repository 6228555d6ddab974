tracekit convert --to dcfg tests/data/dcfg/pass/minimal.dcfg.json
