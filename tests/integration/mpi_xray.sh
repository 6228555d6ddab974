#!/bin/bash
# tracekit-mpi on XRay traces (issue 28): report's latency partials reduced across 1, 2, 3 and 5
# ranks (a tree of fan-in 2 and the default), the same bytes as tracekit; the commands that run
# on rank 0 alone (info, convert, standard input) too.
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/integration/lib/mpi.sh
D=tests/data/xray/pass
traces=($D/mtpool.fdr $D/calltree.fdr $D/mtpool.basic $D/calltree.basic $D/mtpool-wrapped.fdr
        $D/mtpool-emutsc.fdr)
for np in 1 2 3 5; do
    same_as_tracekit "report json" $np report "${traces[@]:0:5}" --format json
    TRACEKIT_MPI_FANIN=2 same_as_tracekit "report text per thread, fan-in 2" $np \
        report "${traces[@]:0:5}" --per-thread --sort count
    same_as_tracekit "report csv -o" $np report -m tests/data/xray/bin/mtpool $D/mtpool.fdr \
        $D/mtpool.fdr $D/mtpool-wrapped.fdr --format csv -o "$T/report.csv"
done
# the clocks differ: the root says so, exit 1, no output
same_as_tracekit "report of two clocks" 3 report "${traces[@]}" -o "$T/none.txt"
# run on rank 0 alone
same_as_tracekit "info" 3 info "${traces[@]:0:3}"
same_as_tracekit "convert" 2 convert --to folded $D/mtpool.fdr -o "$T/mtpool.folded"
STDIN=$D/calltree.fdr same_as_tracekit "report of standard input" 2 report -
same_as_tracekit "instr-map" 2 instr-map tests/data/xray/bin/mtpool
same_as_tracekit "usage error" 3 report --no-such-option $D/mtpool.fdr
[ $mpi_fail = 0 ] && echo "mpi_xray: ok"
exit $mpi_fail
