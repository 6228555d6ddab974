tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_header_reordered.trace.json
