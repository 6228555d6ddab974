tracekit diff ../shared/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 ../shared/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2 | tail -5
