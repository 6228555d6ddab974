tracekit coverage --format json tests/data/csi_cov/core/tiny-pie.bin tests/data/csi_cov/core/tiny-pie.core
