# report --dcfg agrees with check --dcfg on a process the DCFG lacks
tracekit report --dcfg tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_pid_mismatch.trace.json
