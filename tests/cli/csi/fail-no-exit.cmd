tracekit check --from csi tests/data/csi/fail/no-exit.txt
