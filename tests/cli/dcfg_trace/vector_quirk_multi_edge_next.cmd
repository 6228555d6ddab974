tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/quirk_multi_edge_next.trace.json
