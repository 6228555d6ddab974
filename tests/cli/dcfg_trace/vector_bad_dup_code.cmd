tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_dup_code.trace.json
