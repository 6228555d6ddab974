tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_dict_value_not_string.trace.json
