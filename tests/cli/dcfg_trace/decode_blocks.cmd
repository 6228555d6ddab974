tracekit decode --dcfg tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 --what blocks tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_multi_row.trace.json
