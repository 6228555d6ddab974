tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_incomplete_code.trace.json
