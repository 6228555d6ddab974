tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_dict_self_reference.trace.json
