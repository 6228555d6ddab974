tracekit report --format=xml tests/data/dcfg/pass/minimal.dcfg.json
