tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_dict_duplicate_key.trace.json
