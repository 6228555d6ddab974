tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_count0.trace.json
