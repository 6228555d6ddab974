tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_json_escape_in_seq.trace.json
