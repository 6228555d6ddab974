tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_code_33bits.trace.json
