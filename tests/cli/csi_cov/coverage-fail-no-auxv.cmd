tracekit coverage tests/data/csi_cov/core/tiny-pie.bin tests/data/csi_cov/core/tiny-pie-noauxv.core
