#!/bin/bash
# tracekit-mpi on one DCFG-Trace (issue 28): report with every rank reading the trace's tables
# and decoding its share of each thread's chunks (split by their bytes), the partial reports
# merged along the tree; the same bytes as tracekit on 1, 2, 3 and 5 ranks, with and without
# the DCFG, and the errors of the fail corpus.
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/integration/lib/mpi.sh
P=tests/data/dcfg_trace/pass
for np in 1 2 3 5; do
    same_as_tracekit "report" $np report $P/gen11.level9.trace.json
    TRACEKIT_MPI_FANIN=2 same_as_tracekit "report --dcfg json, fan-in 2" $np \
        report --dcfg $P/gen11.dcfg.json --format json --top 0 $P/gen11.level0.trace.json \
        -o "$T/report.json"
done
same_as_tracekit "report of Intel's trace" 3 report --dcfg $P/gen11.dcfg.json \
    $P/gen11.intel.trace.json
for f in tests/data/dcfg_trace/fail/*; do
    same_as_tracekit "report of $(basename "$f")" 3 report "$f"
done
[ $mpi_fail = 0 ] && echo "mpi_dcfg_trace: ok"
exit $mpi_fail
