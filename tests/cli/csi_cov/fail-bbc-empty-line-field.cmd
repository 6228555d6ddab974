tracekit check tests/data/csi_cov/fail/bbc-empty-line-field.txt
