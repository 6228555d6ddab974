tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_dict_nested.trace.json
