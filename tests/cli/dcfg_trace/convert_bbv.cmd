tracekit convert --to bbv --dcfg ../shared/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 --interval 40 ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_repeat.trace.json
