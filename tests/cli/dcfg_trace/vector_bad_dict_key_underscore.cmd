tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_dict_key_underscore.trace.json
