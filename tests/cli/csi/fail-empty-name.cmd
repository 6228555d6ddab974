tracekit check --from csi tests/data/csi/fail/empty-name.txt
