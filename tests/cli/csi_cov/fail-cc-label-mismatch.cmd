tracekit check tests/data/csi_cov/fail/cc-label-mismatch.txt
