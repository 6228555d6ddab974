tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_missing_seq_column.trace.json
