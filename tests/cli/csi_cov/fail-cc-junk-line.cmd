tracekit check tests/data/csi_cov/fail/cc-junk-line.txt
