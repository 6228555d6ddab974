tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_empty_code_with_siblings.trace.json
