tracekit decode --pid 29003 --thread 1 tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json
