# counts of 2^63 twice: over 64 bits, refused
tracekit merge tests/data/dcfg/merge/big-counts.dcfg.json tests/data/dcfg/merge/big-counts.dcfg.json
