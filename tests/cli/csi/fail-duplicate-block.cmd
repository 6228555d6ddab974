tracekit check --from csi tests/data/csi/fail/duplicate-block.txt
