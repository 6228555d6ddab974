tracekit dump tests/data/dcfg/pass/generated-no-routines.dcfg.json
