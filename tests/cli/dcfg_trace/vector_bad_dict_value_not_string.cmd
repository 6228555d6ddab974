tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_dict_value_not_string.trace.json
