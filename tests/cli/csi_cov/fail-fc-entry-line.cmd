tracekit check tests/data/csi_cov/fail/fc-entry-line.txt
