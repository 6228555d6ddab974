tracekit check -v tests/data/csi_cov/pass/cc-clones-share-array.txt
