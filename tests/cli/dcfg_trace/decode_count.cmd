tracekit decode --what count tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_repeat_nested.trace.json
