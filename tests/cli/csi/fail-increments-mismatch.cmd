tracekit check --from csi tests/data/csi/fail/increments-mismatch.txt
