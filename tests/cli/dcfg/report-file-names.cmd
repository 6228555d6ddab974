tracekit report --table blocks tests/data/dcfg/check/file-names.dcfg.json
