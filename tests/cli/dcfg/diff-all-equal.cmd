tracekit diff --equal tests/data/dcfg/pass/minimal.dcfg.json tests/data/dcfg/pass/minimal.dcfg.json
