tracekit check --from csi tests/data/csi/fail/missing-dollar.txt
