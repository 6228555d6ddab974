tracekit report tests/data/csi/fail/path-count-overflow.txt
