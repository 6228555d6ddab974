# --loop selects no routine: no routine table in CSV (an empty one with --table routines),
# and the text says why
tracekit report --loop 245 --top 2 --format csv tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
tracekit report --loop 245 --table routines --format csv tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
tracekit report --loop 245 --table routines tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
tracekit report --routine 99999 --table loops tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
