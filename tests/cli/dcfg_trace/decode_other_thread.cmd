tracekit decode --pid 29003 --thread 1 ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json
