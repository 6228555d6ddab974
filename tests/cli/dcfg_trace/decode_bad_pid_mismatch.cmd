tracekit decode ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_pid_mismatch.trace.json
