tracekit check --from csi tests/data/csi/fail/cycle-without-back-edge.txt
