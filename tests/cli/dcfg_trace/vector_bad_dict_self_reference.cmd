tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_dict_self_reference.trace.json
