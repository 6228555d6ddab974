tracekit check --from csi tests/data/csi/fail/truncated-elf.bin
