tracekit check tests/data/csi_cov/fail/cc-array-of-other-function.txt
