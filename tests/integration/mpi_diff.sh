#!/bin/bash
# tracekit-mpi diff of two sets (FILES... --vs FILES..., issue 28): diff runs on rank 0 alone
# (docs/mpi.md), which merges each set on its -j threads; the same bytes and status as tracekit
# on 1, 2, 3 and 5 ranks for Callgrind, DCFG and XRay sets (XRay's --format folded and svg
# too, -j 1 and -j 2, with a damaged trace and two clocks in a side), a missing file, the
# refusal of DCFG-Trace sets and a usage error (tests/mpi/batch.c runs every command in one
# MPI job).
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/integration/lib/mpi.sh
C=tests/data/callgrind/pass
M=tests/data/dcfg/merge
X=tests/data/xray/pass
G=tests/data/dcfg_trace/pass
batch "callgrind sets" diff $C/demo-every.out $C/demo-every.out.1 --vs $C/demo-every.out.1 $C/demo-every.out
batch "callgrind sets, json, -j 1" diff -j 1 --format json $C/threads-sep.out-01 $C/threads-sep.out-02 --vs $C/threads-sep.out-03
batch "dcfg sets, -o" diff $M/hello-run1.dcfg.json $M/hello-run2.dcfg.json --vs $M/hello-run1.dcfg.json -o "$T/d.txt"
batch "xray sets" diff $X/mtpool.fdr $X/mtpool-wrapped.fdr --vs $X/mtpool.fdr $X/mtpool.basic
batch "xray sets, folded" diff --format folded -m tests/data/xray/bin/mtpool $X/mtpool.fdr $X/mtpool-wrapped.fdr --vs $X/mtpool.basic $X/mtpool.fdr
batch "xray sets, folded, -j 1, calls" diff --format folded -j 1 --weight calls $X/mtpool.fdr $X/mtpool.basic --vs $X/mtpool.fdr $X/mtpool.fdr
batch "xray sets, svg, -j 2, -o" diff --format svg -j 2 $X/mtpool.basic $X/mtpool-wrapped.fdr --vs $X/mtpool.fdr $X/mtpool.fdr $X/mtpool.basic -o "$T/d.svg"
batch "xray sets, folded, a damaged trace, -o" diff --format folded $X/mtpool.fdr --vs $X/mtpool.fdr tests/data/xray/fail/extents-past-end.fdr -o "$T/d.folded"
batch "xray sets, svg, two clocks, -j 1" diff --format svg -j 1 $X/mtpool.fdr $X/calltree-emutsc.fdr --vs $X/mtpool.fdr
batch "a missing file" diff $C/demo-every.out --vs $C/demo-every.out.1 $C/missing.out
batch "dcfg-trace sets" diff $G/gen11.level0.trace.json --vs $G/gen11.level9.trace.json $G/gen11.level0.trace.json
batch "--vs twice" diff $C/demo-every.out --vs $C/demo-every.out --vs $C/demo-every.out
batch_run 1 2 3 5
