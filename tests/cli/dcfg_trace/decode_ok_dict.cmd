tracekit decode tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_dict.trace.json
