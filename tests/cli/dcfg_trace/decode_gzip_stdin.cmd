gzip -c tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_dict.trace.json | tracekit decode -
