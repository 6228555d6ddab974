# with --dcfg, a process the DCFG lacks is an error, as in check --dcfg (vector_bad_pid_mismatch)
tracekit decode --dcfg tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 --what count tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_pid_mismatch.trace.json
