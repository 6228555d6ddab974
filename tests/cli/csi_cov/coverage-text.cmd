tracekit coverage tests/data/csi_cov/core/tiny.bin tests/data/csi_cov/core/tiny.core
