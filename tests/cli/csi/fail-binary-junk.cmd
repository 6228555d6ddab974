tracekit check --from csi tests/data/csi/fail/binary-junk.bin
