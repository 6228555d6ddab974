tracekit check --from csi tests/data/csi/fail/huge-increment.txt
