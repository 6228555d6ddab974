tracekit check --from csi tests/data/csi/fail/dead-end-block.txt
