#!/bin/bash
# tracekit-mpi on commands that treat each input on its own (issue 28): DCFG report, check and
# dump, XRay check and dump, CSI and CSI coverage check, report, annotate and dump (and their convert, rank 0's alone); each rank runs the command over its inputs, rank 0 prints every
# rank's output and errors in order: the same bytes as tracekit on 1, 2, 3 and 5 ranks, also
# when an input fails (check goes on; report and dump stop there, rank 0 then runs alone;
# check of FILEs of several formats, or of some that fail, is rank 0's alone, as tracekit's).
# And DCFG merge, whose counts partials (tk_dcfg_counts) are merged along the tree: the same
# merged DCFG (of the first's graph, or of the union of runs that took other paths), and the
# same errors (blocks that conflict, a sum over 64 bits, a missing file) wherever the ranks'
# ranges cut the inputs.
# One MPI job per number of ranks runs every command (tests/mpi/batch.c).
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/integration/lib/mpi.sh
D=tests/data/dcfg/pass
F=tests/data/dcfg/fail
dcfgs=($D/*.dcfg.json)
X=tests/data/xray/pass
batch "dcfg report" report "${dcfgs[@]}" "${dcfgs[@]}"
batch "dcfg report json" report --format json --top 0 "${dcfgs[@]}"
batch "dcfg check with failures" check "${dcfgs[@]}" $F/*.json
batch "check of mixed formats" check $D/minimal.dcfg.json $X/calltree.fdr $F/not-an-object.dcfg.json $D/recursion.dcfg.json $X/calltree.basic
batch "check of several formats, -j 4" check -j 4 tests/data/callgrind/pass/gzip.out \
    $D/minimal.dcfg.json $X/calltree.fdr $D/missing.dcfg.json $D/recursion.dcfg.json $X/mtpool.fdr
batch "xray check" check $X/mtpool.fdr $X/calltree.basic tests/data/xray/fail/truncated-record.fdr \
    $X/mtpool-wrapped.fdr
batch "dcfg report stopping at a damaged file" report "${dcfgs[@]}" $F/dangling-edge.dcfg.json \
    "${dcfgs[@]}"
batch "dcfg dump" dump "${dcfgs[@]:0:3}"
batch "xray dump" dump $X/calltree.fdr $X/mtpool.basic $X/calltree.basic
C=tests/data/csi
csis=($C/pass/valid-other-order.PT $C/states/variants.PT $C/elf/main-pt.o $C/elf/foo-pt.o)
batch "csi report" report --top 3 "${csis[@]}" "${csis[@]}"
batch "csi annotate stopping at a damaged file" annotate -n 2 "${csis[@]}" \
    $C/fail/missing-dollar.txt "${csis[@]}"
batch "csi dump stopping at an ELF file without .debug_PT" dump "${csis[@]}" $C/elf/no-pt.o \
    "${csis[@]}"
batch "csi check with failures" check "${csis[@]}" $C/fail/*.txt $C/elf/no-pt.o "${csis[@]}"
batch "csi convert (rank 0 alone)" convert --to csi --renumber "${csis[@]}" "${csis[@]}"
batch "csi convert to dot stopping at a damaged file" convert --to dot -j 2 "${csis[@]}" \
    $C/pass/generated-200.PT $C/fail/missing-dollar.txt "${csis[@]}"
V=tests/data/csi_cov/elf
batch "csi-cc report" report --from csi-cc $V/definer.CC.txt $V/user.CC.txt $V/definer-cov.o \
    $V/multifile-cov.exe
batch "csi-bbc annotate stopping at a damaged file" annotate --from csi-bbc $V/definer.BBC.txt \
    $V/user.BBC.txt tests/data/csi_cov/fail/bbc-bad-line.txt $V/definer-cov.o
batch "csi-fc convert (rank 0 alone)" convert --from csi-fc --to csi-fc $V/definer.FC.txt \
    $V/user.FC.txt $V/definer-fc.o
M=tests/data/dcfg/merge
runs=($M/hello-run1.dcfg.json $M/hello-run2.dcfg.json $M/hello-run1.dcfg.json
    $M/hello-run2.dcfg.json $M/hello-run2.dcfg.json $M/hello-run1.dcfg.json $M/hello-run1.dcfg.json)
batch "dcfg merge" merge -o $T/merged.dcfg.json "${runs[@]}"
TRACEKIT_MPI_FANIN=2 batch "dcfg merge, fan-in 2, one job a rank" merge -j 1 "${runs[@]}"
batch "dcfg merge of one" merge $D/generated-hard.dcfg.json
batch "dcfg merge of runs that took other paths" merge -o $T/union.dcfg.json "${runs[@]:0:3}" \
    $M/hello-split.dcfg.json "${runs[@]:0:2}" $M/hello-split.dcfg.json
batch "dcfg merge refusing blocks that conflict" merge -o $T/no.dcfg.json "${runs[@]:0:4}" \
    $M/hello-other.dcfg.json "${runs[@]:0:2}"
batch "dcfg merge over 64 bits" merge $M/big-counts.dcfg.json $M/big-counts.dcfg.json
batch "dcfg merge with a missing file" merge "${runs[@]:0:3}" $M/missing.dcfg.json "${runs[@]:0:2}"
batch_run 1 2 3 5
[ $mpi_fail = 0 ] && echo "mpi_each: ok"
exit $mpi_fail
