tracekit extract tests/data/csi/elf/no-pt.o
