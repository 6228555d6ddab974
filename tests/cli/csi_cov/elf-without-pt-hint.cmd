tracekit report tests/data/csi_cov/elf/multifile-cov.exe
