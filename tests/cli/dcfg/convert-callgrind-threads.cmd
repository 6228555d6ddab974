tracekit convert --to callgrind tests/data/dcfg/pass/generated-hard.dcfg.json
