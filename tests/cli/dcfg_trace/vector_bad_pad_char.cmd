tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_pad_char.trace.json
