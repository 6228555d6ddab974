tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_bits_exhausted.trace.json
