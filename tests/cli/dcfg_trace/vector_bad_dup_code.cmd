tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_dup_code.trace.json
