tracekit convert --to csi --renumber tests/data/csi/fail/dead-end-block.txt; tracekit convert --to csi --renumber fuzz/corpus/csi/renumber-no-edges.txt
