tracekit check tests/data/csi_cov/fail/cc-huge-index.txt
