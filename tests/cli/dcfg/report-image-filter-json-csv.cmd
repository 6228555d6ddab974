tracekit report --image 2 --table summary --format json ../shared/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
tracekit report --image 3 --table summary --format csv ../shared/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
