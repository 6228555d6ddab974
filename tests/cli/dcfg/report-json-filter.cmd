tracekit report --format=json --routine 4 tests/data/dcfg/pass/minimal.dcfg.json
