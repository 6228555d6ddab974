tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_std_base64_slash.trace.json
