tracekit encode --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json tests/data/dcfg_trace/fail/truncated.trace.json
