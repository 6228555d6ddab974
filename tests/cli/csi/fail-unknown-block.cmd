tracekit check --from csi tests/data/csi/fail/unknown-block.txt
