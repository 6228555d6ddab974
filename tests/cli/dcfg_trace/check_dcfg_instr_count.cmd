tracekit check --dcfg ../shared/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 ../shared/corpus/dcfg-thirdparty/trace-vectors/quirk_multi_edge_next.trace.json
