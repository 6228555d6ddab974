tracekit info tests/data/csi/elf/foo-pt.o
