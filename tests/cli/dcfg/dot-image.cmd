tracekit convert --to dot --image 1 ../shared/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
