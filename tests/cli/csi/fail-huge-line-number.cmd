tracekit check --from csi tests/data/csi/fail/huge-line-number.txt
