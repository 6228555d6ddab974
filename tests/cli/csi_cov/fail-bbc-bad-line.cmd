tracekit check tests/data/csi_cov/fail/bbc-bad-line.txt
