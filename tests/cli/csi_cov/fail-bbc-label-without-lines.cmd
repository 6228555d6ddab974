tracekit check tests/data/csi_cov/fail/bbc-label-without-lines.txt
