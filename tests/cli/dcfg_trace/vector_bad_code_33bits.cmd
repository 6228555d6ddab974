tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_code_33bits.trace.json
