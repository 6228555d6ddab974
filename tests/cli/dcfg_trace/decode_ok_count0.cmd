tracekit decode tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_count0.trace.json
