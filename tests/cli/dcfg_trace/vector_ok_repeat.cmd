tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_repeat.trace.json
