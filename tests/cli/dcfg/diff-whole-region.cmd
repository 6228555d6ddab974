# the images and routines before the blocks and edges, each table by the size of its change
tracekit diff tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2
