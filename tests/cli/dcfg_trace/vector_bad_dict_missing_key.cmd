tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_dict_missing_key.trace.json
