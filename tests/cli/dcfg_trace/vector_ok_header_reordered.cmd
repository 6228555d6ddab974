tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_header_reordered.trace.json
