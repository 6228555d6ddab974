tracekit check --from csi tests/data/csi/fail/huge-weight.txt
