tracekit check tests/data/csi_cov/fail/cc-repeated-index.txt
