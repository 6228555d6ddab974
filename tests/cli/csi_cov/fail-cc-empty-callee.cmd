tracekit check tests/data/csi_cov/fail/cc-empty-callee.txt
