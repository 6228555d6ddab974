tracekit check --from csi-fc tests/data/csi_cov/fail/fc-given-bbc.txt
