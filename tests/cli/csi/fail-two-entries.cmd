tracekit check --from csi tests/data/csi/fail/two-entries.txt
