tracekit convert --to bbv --dcfg tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 --interval 40 tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_repeat.trace.json
