# a block one byte further in the third DCFG: refused, the file, the process and the block named
tracekit merge -j 2 tests/data/dcfg/merge/hello-run1.dcfg.json tests/data/dcfg/merge/hello-run2.dcfg.json tests/data/dcfg/merge/hello-other.dcfg.json
