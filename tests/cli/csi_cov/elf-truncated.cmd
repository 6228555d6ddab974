tracekit check --from csi-cc tests/data/csi/fail/truncated-elf.bin
