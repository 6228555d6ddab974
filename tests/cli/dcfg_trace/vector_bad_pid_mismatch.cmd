tracekit check --dcfg tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_pid_mismatch.trace.json
