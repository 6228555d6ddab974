tracekit decode tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_dict_key_chars.trace.json
