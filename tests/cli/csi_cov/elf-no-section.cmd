tracekit report --from csi-fc tests/data/csi/elf/no-pt.o
