tracekit coverage tests/data/csi/elf/multifile-pt.exe tests/data/csi_cov/core/tiny.core
