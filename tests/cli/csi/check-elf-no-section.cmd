tracekit check tests/data/csi/elf/no-pt.o
