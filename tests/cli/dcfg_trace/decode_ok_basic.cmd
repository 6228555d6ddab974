tracekit decode tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json
