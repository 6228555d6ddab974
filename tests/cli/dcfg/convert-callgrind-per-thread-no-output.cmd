tracekit convert --to callgrind --per-thread tests/data/dcfg/pass/generated-hard.dcfg.json
