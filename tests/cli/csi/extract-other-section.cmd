tracekit extract --section .nothere tests/data/csi/elf/main-pt.o
