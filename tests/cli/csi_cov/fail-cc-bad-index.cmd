tracekit check --from csi-cc tests/data/csi_cov/fail/cc-bad-index.txt
