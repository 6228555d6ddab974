#!/bin/bash
# tracekit-mpi on one DCFG-Trace (issue 28): report with every rank reading the trace's tables
# and decoding its share of each thread's chunks (split by their bytes), the partial reports
# merged along the tree; the same bytes as tracekit on 1, 2, 3 and 5 ranks, with and without
# the DCFG, and the errors of the fail corpus; convert --to bbv, callgrind, dot, folded and svg
# split by chunks the same too.
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
# convert --to bbv, each thread's chunks split across the ranks in three passes (docs/mpi.md,
# "DCFG-Trace basic-block vectors"): tracekit's bytes, markers (to standard error) and errors,
# a damaged 4th chunk too
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
# convert --to callgrind and --to dot, each thread's chunks split across the ranks (docs/mpi.md,
# "DCFG-Trace profiles"): a generated trace of 5 threads of small chunks, one of one thread,
# gen11's 2 threads, tailjump's one, with -j 1 and 2, one part and a file per thread; damaged
# chunks in later threads (the first in thread order is the error, no output), a process the
# DCFG lacks
cc -std=c11 -O2 -D_GNU_SOURCE -o "$T/gen" tests/gen/dcfg_trace_gen.c || exit 1
"$T/gen" --seed 5 --routines 40 --threads 5 --edges-per-thread 4000 --pid 1005 \
    --dcfg "$T/h.dcfg.json" --edges "$T/h.edges"
"$TK" encode --dcfg "$T/h.dcfg.json" --level 5 --chunk-instrs 3000 -o "$T/h.trace.json" \
    "$T/h.edges" || exit 1
# h.trace.json with chunk C (from 1) of thread TH (FILE: of that file instead) made to claim
# 999 edges: its sequence runs out of bits when decoded (the trace opens)
damage() {
    local l
    l=$(grep -n "^    \[ $1, \[" "$T/h.trace.json" | cut -d: -f1)
    sed -E "$((l + $2))s/^( *\[ [0-9]+, [0-9]+, )[0-9]+/\1999/" "${3:-$T/h.trace.json}"
}
damage 3 2 >"$T/h3.trace.json"
damage 1 3 "$T/h3.trace.json" >"$T/h13.trace.json"
# one thread of 40-odd chunks: its chunks split across the ranks; damaged in its middle
"$T/gen" --seed 9 --routines 60 --threads 1 --edges-per-thread 12000 --pid 1005 \
    --dcfg "$T/one.dcfg.json" --edges "$T/one.edges"
"$TK" encode --dcfg "$T/one.dcfg.json" --level 9 --chunk-instrs 2000 -o "$T/one.trace.json" \
    "$T/one.edges" || exit 1
l=$(grep -n '^    \[ 0, \[' "$T/one.trace.json" | cut -d: -f1)
sed -E "$((l + 20))s/^( *\[ [0-9]+, [0-9]+, )[0-9]+/\1999/" "$T/one.trace.json" >"$T/one20.trace.json"
sed -E "$((l + 30))s/^( *\[ [0-9]+, [0-9]+, [0-9]+, )[0-9]+/\17/" "$T/one.trace.json" \
    >"$T/one30.trace.json"
# convert --to bbv of the one thread of 40-odd chunks and of the 5 threads: slices that end in
# any rank's chunks, with loop boundaries and their markers, -j 1 and 2, fan-in 2, a thread or
# a process selected; a damaged chunk in the middle of the one thread (its slices before it
# on standard output, its markers, then the error), damaged 3rd and 1st threads (-o: none
# written), a process the DCFG lacks
for i in 1 777 100000000; do
    for j in 1 2; do
        batch "convert --to bbv --interval $i -j $j, one thread" convert --to bbv -j $j \
            --interval $i --dcfg "$T/one.dcfg.json" "$T/one.trace.json" -o "$T/one.bb"
    done
    batch "convert --to bbv --interval $i --loop-boundaries, one thread" convert --to bbv \
        --interval $i --loop-boundaries --markers /dev/stderr --dcfg "$T/one.dcfg.json" \
        "$T/one.trace.json"
done
TRACEKIT_MPI_FANIN=2 batch "convert --to bbv --loop-boundaries, 5 threads, fan-in 2" \
    convert --to bbv --interval 3000 --loop-boundaries --markers /dev/stderr -j 2 \
    --dcfg "$T/h.dcfg.json" "$T/h.trace.json" -o "$T/h.bb"
batch "convert --to bbv --thread 2, 5 threads" convert --to bbv --interval 500 --thread 2 \
    --dcfg "$T/h.dcfg.json" "$T/h.trace.json"
batch "convert --to bbv --pid, 5 threads" convert --to bbv --interval 20000 --pid 1005 \
    --dcfg "$T/h.dcfg.json" "$T/h.trace.json"
batch "convert --to bbv, one thread damaged at its 20th chunk" convert --to bbv -j 2 \
    --interval 300 --loop-boundaries --markers /dev/stderr --dcfg "$T/one.dcfg.json" \
    "$T/one20.trace.json"
batch "convert --to bbv, one thread's 30th chunk at another edge" convert --to bbv \
    --interval 300 --dcfg "$T/one.dcfg.json" "$T/one30.trace.json"
batch "convert --to bbv of a damaged 3rd thread" convert --to bbv --interval 1000 \
    --dcfg "$T/h.dcfg.json" "$T/h3.trace.json" -o "$T/h.bb"
batch "convert --to bbv of damaged 1st and 3rd threads" convert --to bbv --interval 1000 \
    --dcfg "$T/h.dcfg.json" "$T/h13.trace.json"
batch "convert --to bbv, a process the DCFG lacks" convert --to bbv \
    --dcfg "$T/h.dcfg.json" $P/gen11.level0.trace.json -o "$T/h.bb"
for j in 1 2; do
    batch "convert --to callgrind -j $j, one thread" convert --to callgrind -j $j \
        --dcfg "$T/one.dcfg.json" "$T/one.trace.json" -o "$T/one.cg"
    batch "convert --to dot -j $j, one thread" convert --to dot -j $j \
        --dcfg "$T/one.dcfg.json" "$T/one.trace.json"
done
TRACEKIT_MPI_FANIN=2 batch "convert --to callgrind --per-thread, one thread, fan-in 2" \
    convert --to callgrind --per-thread --dcfg "$T/one.dcfg.json" "$T/one.trace.json" \
    -o "$T/onep.cg"
batch "convert --to callgrind, one thread damaged at its 20th chunk" convert --to callgrind \
    --dcfg "$T/one.dcfg.json" "$T/one20.trace.json" -o "$T/one.cg"
batch "convert --to dot, one thread's 30th chunk at another edge" convert --to dot -j 2 \
    --dcfg "$T/one.dcfg.json" "$T/one30.trace.json"
for j in 1 2; do
    batch "convert --to callgrind -j $j, 5 threads" convert --to callgrind -j $j \
        --dcfg "$T/h.dcfg.json" "$T/h.trace.json" -o "$T/h.cg"
    batch "convert --to dot -j $j, 5 threads" convert --to dot -j $j --dcfg "$T/h.dcfg.json" \
        "$T/h.trace.json"
    batch "convert --to callgrind --per-thread -j $j, 5 threads" convert --to callgrind \
        --per-thread -j $j --dcfg "$T/h.dcfg.json" "$T/h.trace.json" -o "$T/hp.cg"
done
TRACEKIT_MPI_FANIN=2 batch "convert --to callgrind, 5 threads, fan-in 2" convert \
    --to callgrind --dcfg "$T/h.dcfg.json" "$T/h.trace.json"
TRACEKIT_MPI_FANIN=2 batch "convert --to dot --all, fan-in 2" convert --to dot --all \
    --dcfg "$T/h.dcfg.json" "$T/h.trace.json" -o "$T/h.dot"
for f in level0 level9 intel; do
    batch "convert --to callgrind of gen11.$f" convert --to callgrind --dcfg $P/gen11.dcfg.json \
        $P/gen11.$f.trace.json
    batch "convert --to dot of gen11.$f" convert --to dot --dcfg $P/gen11.dcfg.json \
        $P/gen11.$f.trace.json -o "$T/g.dot"
done
batch "convert --to callgrind --per-thread of gen11" convert --to callgrind --per-thread \
    --dcfg $P/gen11.dcfg.json $P/gen11.level9.trace.json -o "$T/gp.cg"
batch "convert --to callgrind of one thread" convert --to callgrind \
    --dcfg $P/tailjump.dcfg.json $P/tailjump.trace.json
batch "convert --to callgrind of a damaged 3rd thread" convert --to callgrind -j 2 \
    --dcfg "$T/h.dcfg.json" "$T/h3.trace.json" -o "$T/h.cg"
batch "convert --to dot of damaged 1st and 3rd threads" convert --to dot \
    --dcfg "$T/h.dcfg.json" "$T/h13.trace.json" -o "$T/h.dot"
batch "convert --to callgrind --per-thread of damaged threads" convert --to callgrind \
    --per-thread --dcfg "$T/h.dcfg.json" "$T/h13.trace.json" -o "$T/hp.cg"
batch "convert --to callgrind of a damaged chunk" convert --to callgrind \
    --dcfg $P/gen11.dcfg.json "$T/damaged.json"
batch "convert --to callgrind, a process the DCFG lacks" convert --to callgrind \
    --dcfg "$T/h.dcfg.json" $P/gen11.level0.trace.json
batch "convert --to callgrind --per-thread without -o" convert --to callgrind --per-thread \
    --dcfg "$T/h.dcfg.json" "$T/h.trace.json"
# convert --to folded and --to svg, each thread's chunks split across the ranks (docs/mpi.md,
# "DCFG-Trace folded stacks"): the 5 threads, the one thread of 40-odd chunks (also with chunks
# that start before the one before them ended: self times clamped), gen11's, tailjump's, -j 1
# and 2, --per-thread, fan-in 2, the flame graph's options; the first error in thread order
# (damaged chunks, another edge, a process the DCFG lacks: exit 1, no -o file), a usage error
sed -E "$((l + 10))s/^( *\[ )[0-9]+/\15/; $((l + 25))s/^( *\[ )[0-9]+/\1900/" "$T/one.trace.json" \
    >"$T/oneback.trace.json"
for j in 1 2; do
    batch "convert --to folded -j $j, one thread" convert --to folded -j $j \
        --dcfg "$T/one.dcfg.json" "$T/one.trace.json" -o "$T/one.folded"
    batch "convert --to folded -j $j, chunks back in time" convert --to folded -j $j \
        --dcfg "$T/one.dcfg.json" "$T/oneback.trace.json"
    batch "convert --to folded --per-thread -j $j, 5 threads" convert --to folded --per-thread \
        -j $j --dcfg "$T/h.dcfg.json" "$T/h.trace.json" -o "$T/h.folded"
    batch "convert --to svg -j $j, 5 threads" convert --to svg -j $j --dcfg "$T/h.dcfg.json" \
        "$T/h.trace.json" -o "$T/h.svg"
done
TRACEKIT_MPI_FANIN=2 batch "convert --to folded, 5 threads, fan-in 2" convert --to folded \
    --dcfg "$T/h.dcfg.json" "$T/h.trace.json"
TRACEKIT_MPI_FANIN=2 batch "convert --to svg --per-thread --title --width, fan-in 2" convert \
    --to svg --per-thread --title "one thread" --width 900 --reverse \
    --dcfg "$T/one.dcfg.json" "$T/one.trace.json"
for f in level0 level9 intel; do
    batch "convert --to folded of gen11.$f" convert --to folded --dcfg $P/gen11.dcfg.json \
        $P/gen11.$f.trace.json
done
batch "convert --to folded --per-thread of gen11, -j 3" convert --to folded --per-thread -j 3 \
    --dcfg $P/gen11.dcfg.json $P/gen11.level9.trace.json -o "$T/g.folded"
batch "convert --to svg of one thread" convert --to svg --dcfg $P/tailjump.dcfg.json \
    $P/tailjump.trace.json
batch "convert --to folded, one thread damaged at its 20th chunk" convert --to folded \
    --dcfg "$T/one.dcfg.json" "$T/one20.trace.json" -o "$T/one.folded"
batch "convert --to svg, one thread's 30th chunk at another edge" convert --to svg -j 2 \
    --dcfg "$T/one.dcfg.json" "$T/one30.trace.json" -o "$T/one.svg"
batch "convert --to folded of a damaged 3rd thread" convert --to folded -j 2 \
    --dcfg "$T/h.dcfg.json" "$T/h3.trace.json" -o "$T/h.folded"
batch "convert --to svg of damaged 1st and 3rd threads" convert --to svg \
    --dcfg "$T/h.dcfg.json" "$T/h13.trace.json" -o "$T/h.svg"
batch "convert --to folded of a damaged chunk" convert --to folded \
    --dcfg $P/gen11.dcfg.json "$T/damaged.json"
batch "convert --to folded, a process the DCFG lacks" convert --to folded \
    --dcfg "$T/h.dcfg.json" $P/gen11.level0.trace.json -o "$T/h.folded"
batch "convert --to svg --width 0, a usage error" convert --to svg --width 0 \
    --dcfg "$T/h.dcfg.json" "$T/h.trace.json"
batch_run 1 2 3 5
[ $mpi_fail = 0 ] && echo "mpi_dcfg_trace: ok"
exit $mpi_fail
