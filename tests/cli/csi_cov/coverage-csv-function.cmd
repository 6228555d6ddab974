tracekit coverage --format csv --function work tests/data/csi_cov/core/tiny-pie.bin tests/data/csi_cov/core/tiny-pie.core
