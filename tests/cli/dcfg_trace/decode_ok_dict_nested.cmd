tracekit decode ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_dict_nested.trace.json
