tracekit check --from csi tests/data/csi/fail/weights-collide.txt
