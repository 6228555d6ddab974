tracekit diff tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_dict.trace.json
