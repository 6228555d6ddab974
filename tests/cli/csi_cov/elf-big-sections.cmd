# sections of 128 KiB and more, which the library's allocator maps on their own:
# the command line and the coverage reader give them back with tk_free (free()
# aborted); info without --from finds no .debug_PT, coverage no array symbols
f=tests/data/csi_cov/elf/big-sections.o.xz
tracekit info --from csi-cc $f && tracekit report --from csi-bbc --top 2 $f || exit
tracekit info $f; echo "exit $?"
tracekit coverage --load-address 0x1000 $f tests/data/csi_cov/core/tiny.img; echo "exit $?"
