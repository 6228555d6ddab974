tracekit diff tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_count1.trace.json tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json
