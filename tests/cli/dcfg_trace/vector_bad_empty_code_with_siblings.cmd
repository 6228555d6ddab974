tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_empty_code_with_siblings.trace.json
