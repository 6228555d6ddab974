tracekit check --from csi tests/data/csi/fail/exit-with-lines.txt
