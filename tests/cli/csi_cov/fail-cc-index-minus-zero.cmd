tracekit check tests/data/csi_cov/fail/cc-index-minus-zero.txt
