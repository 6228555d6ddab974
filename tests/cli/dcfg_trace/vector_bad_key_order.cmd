tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/bad_key_order.trace.json
