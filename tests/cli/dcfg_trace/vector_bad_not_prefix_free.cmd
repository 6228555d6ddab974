tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_not_prefix_free.trace.json
