tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_dict_duplicate_key.trace.json
