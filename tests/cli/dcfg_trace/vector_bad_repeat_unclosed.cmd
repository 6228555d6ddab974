tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_repeat_unclosed.trace.json
