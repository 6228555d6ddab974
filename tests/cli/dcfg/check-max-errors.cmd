tracekit check --max-errors 3 tests/data/dcfg/fail/duplicate-node-id.dcfg.json
