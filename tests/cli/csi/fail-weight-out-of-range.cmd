tracekit check --from csi tests/data/csi/fail/weight-out-of-range.txt
