tracekit check tests/data/dcfg/check/file-names.dcfg.json
