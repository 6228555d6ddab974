# a block one byte further in the third DCFG than in the first: refused, both blocks and their files named
tracekit merge -j 2 tests/data/dcfg/merge/hello-run1.dcfg.json tests/data/dcfg/merge/hello-run2.dcfg.json tests/data/dcfg/merge/hello-other.dcfg.json
