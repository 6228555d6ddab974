tracekit decode --what blocks tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json
