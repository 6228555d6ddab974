#!/bin/bash
# tracekit-mpi diff of two sets (FILES... --vs FILES..., issue 28): diff runs on rank 0 alone
# (docs/mpi.md), which merges each set on its -j threads; the same bytes and status as tracekit
# on 1, 2, 3 and 5 ranks for Callgrind, DCFG and XRay sets, a missing file, the refusal of
# DCFG-Trace sets and a usage error (tests/mpi/batch.c runs every command in one MPI job).
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
batch "a missing file" diff $C/demo-every.out --vs $C/demo-every.out.1 $C/missing.out
batch "dcfg-trace sets" diff $G/gen11.level0.trace.json --vs $G/gen11.level9.trace.json $G/gen11.level0.trace.json
batch "--vs twice" diff $C/demo-every.out --vs $C/demo-every.out --vs $C/demo-every.out
batch_run 1 2 3 5
