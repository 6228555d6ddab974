tracekit coverage tests/data/csi_cov/core/tiny-pie.bin tests/data/csi_cov/core/tiny-pie-nohead.core | sed -n 1,4p
