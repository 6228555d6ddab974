tracekit coverage tests/data/csi_cov/core/tiny-pt.bin tests/data/csi_cov/core/tiny-pie.core | sed -n '/^path tracing/,$p'
