tracekit decode tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_pid_mismatch.trace.json
