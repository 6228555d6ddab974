tracekit check tests/data/csi_cov/fail/fc-pt-header.txt
