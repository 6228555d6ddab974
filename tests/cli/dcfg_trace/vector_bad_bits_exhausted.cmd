tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_bits_exhausted.trace.json
