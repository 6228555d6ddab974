tracekit convert --to callgrind --dcfg ../shared/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_multi_row.trace.json
