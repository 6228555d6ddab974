#!/bin/bash
# tracekit-mpi on one DCFG-Trace (issue 28): report with every rank reading the trace's tables
# and decoding its share of each thread's chunks (split by their bytes), the partial reports
# merged along the tree; the same bytes as tracekit on 1, 2, 3 and 5 ranks, with and without
# the DCFG, and the errors of the fail corpus; convert --to bbv (on rank 0 alone) the same too.
# One MPI job per number of ranks runs every command (tests/mpi/batch.c).
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/integration/lib/mpi.sh
P=tests/data/dcfg_trace/pass
batch "report" report $P/gen11.level9.trace.json
TRACEKIT_MPI_FANIN=2 batch "report --dcfg json, fan-in 2" \
    report --dcfg $P/gen11.dcfg.json --format json --top 0 $P/gen11.level0.trace.json \
    -o "$T/report.json"
batch "report of Intel's trace" report --dcfg $P/gen11.dcfg.json $P/gen11.intel.trace.json
for f in tests/data/dcfg_trace/fail/*; do
    batch "report of $(basename "$f")" report "$f"
done
# convert --to bbv runs on rank 0 alone on its -j threads (docs/mpi.md, "DCFG-Trace basic-block
# vectors": where a slice ends depends on the slices before it): tracekit's bytes, markers
# (to standard error) and errors, a damaged 4th chunk too
sed '0,/v-f-3-v-5-2/{s/"v-f-3-v-5-2"/"v-f-3-v-5-!"/}' $P/gen11.level0.trace.json >"$T/damaged.json"
for i in 1 50 100000; do
    for j in 1 3; do
        batch "convert --to bbv --interval $i -j $j" convert --to bbv --dcfg $P/gen11.dcfg.json \
            --interval $i -j $j $P/gen11.level9.trace.json -o "$T/bbv.bb"
    done
done
batch "convert --to bbv --loop-boundaries" convert --to bbv --dcfg $P/gen11.dcfg.json \
    --interval 50 --loop-boundaries --markers /dev/stderr -j 2 $P/gen11.intel.trace.json
batch "convert --to bbv of a damaged chunk" convert --to bbv --dcfg $P/gen11.dcfg.json \
    --interval 50 -j 3 "$T/damaged.json" -o "$T/bbv.bb"
batch_run 1 2 3 5
[ $mpi_fail = 0 ] && echo "mpi_dcfg_trace: ok"
exit $mpi_fail
