tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_code_char.trace.json
