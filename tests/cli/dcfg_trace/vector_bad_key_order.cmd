tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_key_order.trace.json
