tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_json_escape_in_seq.trace.json
