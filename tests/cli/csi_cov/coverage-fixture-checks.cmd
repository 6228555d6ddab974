tracekit check -v --from csi-cc tests/data/csi_cov/core/tiny.bin && tracekit check --from csi-bbc tests/data/csi_cov/core/tiny-pie.bin && tracekit check --from csi-fc tests/data/csi_cov/core/tiny.bin
