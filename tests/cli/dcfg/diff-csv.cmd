# one CSV table of every row: the pair's totals ("process"), then images, routines, blocks, edges
tracekit diff --format csv --top 2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2
