tracekit check tests/data/csi_cov/fail/bbc-null-with-lines.txt
