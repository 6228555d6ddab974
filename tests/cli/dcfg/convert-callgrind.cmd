tracekit convert --to callgrind tests/data/dcfg/pass/minimal.dcfg.json
