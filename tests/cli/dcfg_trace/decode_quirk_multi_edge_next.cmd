tracekit decode tests/data/corpus/dcfg-thirdparty/trace-vectors/quirk_multi_edge_next.trace.json
