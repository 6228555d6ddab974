tracekit decode ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_dict_key_chars.trace.json
