tracekit check --from csi-fc tests/data/csi_cov/fail/fc-empty-array.txt
