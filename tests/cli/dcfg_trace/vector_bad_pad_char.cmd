tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_pad_char.trace.json
