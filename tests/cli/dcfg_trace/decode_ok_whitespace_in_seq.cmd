tracekit decode tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_whitespace_in_seq.trace.json
