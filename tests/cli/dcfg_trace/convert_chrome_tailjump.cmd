# the frames of convert_folded_tailjump as Chrome events
tracekit convert --to chrome --dcfg tests/data/dcfg_trace/pass/tailjump.dcfg.json tests/data/dcfg_trace/pass/tailjump.trace.json
