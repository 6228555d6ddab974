#!/bin/bash
# tracekit-mpi on XRay traces (issue 28): report's latency partials reduced across 1, 2, 3 and 5
# ranks (a tree of fan-in 2 and the default), the same bytes as tracekit; convert --to folded
# and svg of several traces, their folded-stacks partials reduced (a cut trace's warning, the
# map's unknown ids, two clocks); convert --to callgrind and dot of several traces, their events
# profile partials reduced (functions that first appear in other orders, per thread, a map, a
# cut trace, a missing one, two clocks; a trace repeated: its threads' processes); the commands
# that run on rank 0 alone (info, convert to chrome and json, a trace twice among them, standard
# input) too. One MPI job per number of ranks runs every command
# (tests/mpi/batch.c).
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/integration/lib/mpi.sh
D=tests/data/xray/pass
traces=($D/mtpool.fdr $D/calltree.fdr $D/mtpool.basic $D/calltree.basic $D/mtpool-wrapped.fdr
        $D/mtpool-emutsc.fdr)
batch "report json" report "${traces[@]:0:5}" --format json
TRACEKIT_MPI_FANIN=2 batch "report text per thread, fan-in 2" \
    report "${traces[@]:0:5}" --per-thread --sort count
batch "report csv -o" report -m tests/data/xray/bin/mtpool $D/mtpool.fdr $D/mtpool.fdr \
    $D/mtpool-wrapped.fdr --format csv -o "$T/report.csv"
# the clocks differ: the root says so, exit 1, no output
batch "report of two clocks" report "${traces[@]}" -o "$T/none.txt"
# run on rank 0 alone
batch "info" info "${traces[@]:0:3}"
batch "convert" convert --to chrome $D/mtpool.fdr $D/calltree.fdr -o "$T/mtpool.json"
batch "convert json of several" convert --to json "${traces[@]:0:3}" -o "$T/events.json"
# a trace twice: its events apart by their "trace" (docs/formats/xray.md), -j 2 as -j 1
batch "convert json of a trace twice, -j 2" convert --to json -j 2 $D/mtpool.fdr $D/calltree.fdr \
    $D/mtpool.fdr -o "$T/twice.json"
# folded stacks merged along the tree
batch "convert folded" convert --to folded "${traces[@]:0:5}" -o "$T/all.folded"
TRACEKIT_MPI_FANIN=2 batch "convert folded per thread by calls, fan-in 2" \
    convert --to folded --per-thread --weight calls "${traces[@]:0:5}" $D/mtpool.fdr
batch "convert svg with a map, a thread" convert --to svg -m tests/data/xray/bin/mtpool \
    --thread 6261 $D/mtpool.fdr $D/mtpool-wrapped.fdr $D/mtpool.fdr --title "mtpool runs" \
    -o "$T/all.svg"
batch "convert folded of a cut trace" convert --to folded $D/mtpool.fdr \
    tests/data/xray/fail/mtpool-cut.fdr $D/calltree.fdr
batch "convert folded of two clocks" convert --to folded "${traces[@]}" -o "$T/none.folded"
# emulated TSCs (1 GHz in ns): merged; the emulated first, a real one after: refused as
# tracekit refuses to chain them, the error its own
batch "convert folded, emulated TSC" convert --to folded $D/calltree-emutsc.fdr \
    $D/mtpool-emutsc.fdr $D/calltree-emutsc.basic
batch "convert svg of two clocks, the emulated first" convert --to svg $D/mtpool-emutsc.fdr \
    $D/calltree-emutsc.fdr $D/mtpool.fdr -o "$T/none.svg"
batch "convert folded of a missing trace" convert --to folded $D/mtpool.fdr $D/missing.fdr
# one events profile merged along the tree
batch "convert callgrind of several, a map" convert --to callgrind -m tests/data/xray/bin/mtpool \
    $D/mtpool.fdr $D/mtpool-wrapped.fdr $D/mtpool.basic
batch "convert dot of several" convert --to dot "${traces[@]:0:4}" -o "$T/calls.dot"
# two programs, their functions first seen in other orders (calltree's ids are mtpool's too)
TRACEKIT_MPI_FANIN=2 batch "convert callgrind, other orders, fan-in 2" convert --to callgrind \
    $D/calltree.basic $D/mtpool.fdr $D/calltree.fdr $D/mtpool.basic $D/mtpool-wrapped.fdr \
    $D/calltree-typed.fdr -o "$T/orders.cg"
batch "convert dot, other orders, all of it, --per-thread" convert --to dot --node-threshold 0 \
    --edge-threshold 0 --unit ms --full-names --per-thread $D/mtpool.basic $D/calltree.fdr \
    $D/mtpool.fdr $D/calltree.basic -o "$T/orders.dot"
TRACEKIT_MPI_FANIN=2 batch "convert callgrind per thread, fan-in 2" convert --to callgrind \
    --per-thread $D/mtpool.fdr $D/calltree.fdr $D/mtpool.basic $D/calltree.basic \
    $D/mtpool-wrapped.fdr -o "$T/threads.cg"
batch "convert callgrind per thread, a map, a thread" convert --to callgrind --per-thread \
    -m tests/data/xray/bin/mtpool --thread 6261 --thread 6263 $D/mtpool.fdr $D/mtpool-wrapped.fdr \
    $D/mtpool.fdr -o "$T/map.cg"
batch "convert callgrind per thread without -o" convert --to callgrind --per-thread \
    $D/mtpool.fdr $D/calltree.fdr
# calls still open where a trace is cut short: closed after every other trace's calls
batch "convert callgrind of a cut trace" convert --to callgrind $D/mtpool.fdr \
    tests/data/xray/fail/mtpool-cut.fdr $D/calltree.fdr tests/data/xray/fail/calltree-cut.basic \
    $D/mtpool.basic -o "$T/cut.cg"
batch "convert callgrind of cut traces, per thread" convert --to callgrind --per-thread \
    tests/data/xray/fail/mtpool-cut.fdr $D/mtpool.fdr tests/data/xray/fail/calltree-cut.basic \
    -o "$T/cut-threads.cg"
batch "convert dot of a cut trace" convert --to dot tests/data/xray/fail/mtpool-cut.fdr \
    $D/calltree.fdr tests/data/xray/fail/mtpool-cut.fdr
# emulated TSC: a clock in ns (no rounding)
batch "convert callgrind, emulated TSC" convert --to callgrind $D/calltree-emutsc.fdr \
    $D/mtpool-emutsc.fdr $D/calltree-emutsc.basic
batch "convert callgrind of two clocks" convert --to callgrind "${traces[@]}" -o "$T/none.cg"
batch "convert dot of two clocks" convert --to dot $D/mtpool-emutsc.fdr $D/mtpool.fdr \
    $D/calltree.fdr -o "$T/none.dot"
batch "convert callgrind of a missing trace" convert --to callgrind $D/mtpool.fdr \
    $D/calltree.fdr $D/missing.fdr -o "$T/missing.cg"
batch "convert callgrind per thread of a missing trace" convert --to callgrind --per-thread \
    $D/mtpool.fdr $D/missing.fdr $D/calltree.fdr -o "$T/missing-threads.cg"
batch "convert dot of a damaged trace" convert --to dot $D/mtpool.fdr \
    tests/data/xray/fail/unknown-record-type.basic $D/calltree.fdr -o "$T/damaged.dot"
# -j inside a rank: each of its traces into its partial on 2 threads, merged in order (the
# cases above take the default, the CPUs); -j 1 chains them as one stream
for j in 1 2; do
    batch "convert folded per thread -j $j" convert --to folded --per-thread -j $j \
        "${traces[@]:0:5}" tests/data/xray/fail/mtpool-cut.fdr -o "$T/j$j.folded"
    batch "convert svg by calls -j $j" convert --to svg --weight calls -j $j $D/calltree.fdr \
        $D/mtpool.fdr $D/calltree.basic $D/mtpool.basic $D/mtpool.fdr -o "$T/j$j.svg"
    TRACEKIT_MPI_FANIN=2 batch "convert callgrind, other orders, a cut trace -j $j, fan-in 2" \
        convert --to callgrind -j $j $D/calltree.basic $D/mtpool.fdr \
        tests/data/xray/fail/calltree-cut.basic $D/calltree.fdr $D/mtpool.basic \
        $D/mtpool-wrapped.fdr $D/calltree-typed.fdr -o "$T/j$j.cg"
    batch "convert callgrind per thread, a map -j $j" convert --to callgrind --per-thread -j $j \
        -m tests/data/xray/bin/mtpool $D/mtpool.fdr $D/mtpool-wrapped.fdr $D/mtpool.fdr \
        $D/mtpool.basic -o "$T/j$j-threads.cg"
    batch "convert dot -j $j" convert --to dot -j $j "${traces[@]:0:5}" -o "$T/j$j.dot"
    # one trace three times: its threads of three processes (6259, 10000006259, 30000006259)
    batch "convert folded per thread, a trace again -j $j" convert --to folded --per-thread \
        -j $j $D/mtpool.fdr $D/mtpool.fdr $D/mtpool.basic $D/mtpool.fdr -o "$T/j$j-again.folded"
    batch "report per thread csv, a trace again -j $j" report --per-thread --format csv -j $j \
        $D/mtpool.fdr $D/mtpool.fdr $D/mtpool.basic $D/mtpool.fdr
    batch "convert folded, a damaged trace -j $j" convert --to folded -j $j $D/mtpool.fdr \
        $D/calltree.fdr tests/data/xray/fail/unknown-record-type.basic $D/calltree.basic \
        -o "$T/j$j-damaged.folded"
    batch "convert dot, a missing trace -j $j" convert --to dot -j $j $D/mtpool.fdr \
        $D/calltree.fdr $D/mtpool.basic $D/missing.fdr -o "$T/j$j-missing.dot"
    batch "convert callgrind of two clocks -j $j" convert --to callgrind -j $j $D/mtpool.fdr \
        $D/calltree.fdr $D/mtpool-emutsc.fdr $D/calltree.basic -o "$T/j$j-clocks.cg"
done
# an output that is there, no --force: refused before any trace is read (--output: batch
# leaves it as it is)
echo there >"$T/there.folded"
batch "convert folded over an output that is there" convert --to folded $D/mtpool.fdr \
    $D/calltree.fdr --output "$T/there.folded"
STDIN=$D/calltree.fdr batch "report of standard input" report -
batch "instr-map" instr-map tests/data/xray/bin/mtpool
batch "usage error" report --no-such-option $D/mtpool.fdr
batch_run 1 2 3 5
[ "$(cat "$T/there.folded")" = there ] ||
    { echo "FAIL: an output that was there was written"; mpi_fail=1; }
[ $mpi_fail = 0 ] && echo "mpi_xray: ok"
exit $mpi_fail
