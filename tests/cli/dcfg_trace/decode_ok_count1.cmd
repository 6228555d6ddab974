tracekit decode tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_count1.trace.json
