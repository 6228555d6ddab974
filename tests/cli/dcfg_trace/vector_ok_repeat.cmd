tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_repeat.trace.json
