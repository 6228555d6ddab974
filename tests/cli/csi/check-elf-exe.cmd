tracekit check -v tests/data/csi/elf/multifile-pt.exe
