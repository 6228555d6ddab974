tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_dict_key_underscore.trace.json
