# a pipe cannot be looked at whole: an ELF file on it is read as path tracing, which says what else it has
cat tests/data/csi_cov/elf/multifile-cov.exe | tracekit report -
