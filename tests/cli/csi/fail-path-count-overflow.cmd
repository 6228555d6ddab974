tracekit check --from csi tests/data/csi/fail/path-count-overflow.txt
