tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json
