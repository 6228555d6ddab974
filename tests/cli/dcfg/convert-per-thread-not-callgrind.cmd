tracekit convert --to dot --per-thread tests/data/dcfg/pass/minimal.dcfg.json
