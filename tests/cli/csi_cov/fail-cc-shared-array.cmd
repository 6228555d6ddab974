tracekit check tests/data/csi_cov/fail/cc-shared-array.txt
