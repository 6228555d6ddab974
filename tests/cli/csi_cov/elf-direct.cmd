# an ELF file without .debug_PT is read as its coverage metadata: .debug_CC,
# else .debug_BBC, else .debug_FC; info names the other sections
for f in tests/data/csi_cov/elf/multifile-cov.exe tests/data/csi_cov/elf/definer-bbc-fc.o tests/data/csi_cov/elf/definer-fc.o; do
    tracekit info $f && tracekit check -v $f && tracekit report $f && tracekit dump $f || exit
done
tracekit annotate tests/data/csi_cov/elf/multifile-cov.exe && tracekit report --format csv tests/data/csi_cov/elf/definer-bbc-fc.o &&
    tracekit convert --to csi-cc --form plain tests/data/csi_cov/elf/multifile-cov.exe &&
    tracekit convert --to csi-bbc tests/data/csi_cov/elf/definer-bbc-fc.o
