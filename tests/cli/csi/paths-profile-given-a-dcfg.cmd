tracekit paths tests/data/dcfg_trace/pass/gen11.dcfg.json --profile tests/data/dcfg_trace/pass/gen11.dcfg.json
