tracekit check --dcfg tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/trace-vectors/quirk_multi_edge_next.trace.json
