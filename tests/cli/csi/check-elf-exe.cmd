tracekit check tests/data/csi/elf/multifile-pt.exe
