tracekit check tests/data/csi_cov/fail/cc-labelled-missing-callee.txt
