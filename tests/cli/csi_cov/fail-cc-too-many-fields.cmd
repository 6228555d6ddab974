tracekit check tests/data/csi_cov/fail/cc-too-many-fields.txt
