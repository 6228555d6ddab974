tracekit convert --to chrome ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_repeat.trace.json
