tracekit coverage --bias 0x1000 tests/data/csi_cov/core/tiny.bin tests/data/csi_cov/core/tiny.core
