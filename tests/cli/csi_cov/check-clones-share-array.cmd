tracekit check tests/data/csi_cov/pass/cc-clones-share-array.txt
