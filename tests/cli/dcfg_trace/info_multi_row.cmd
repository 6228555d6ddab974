tracekit info -v tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_multi_row.trace.json
