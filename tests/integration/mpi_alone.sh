#!/bin/bash
# tracekit-mpi's commands that no other mpi_*.sh script runs (issue 28: "output byte-identical
# to tracekit ... for every command it supports"): those that run on rank 0 alone (every
# format's info, Callgrind annotate, convert, dump and diff, CSI convert, paths and extract,
# CSI coverage convert and coverage, DCFG info, convert and diff, DCFG-Trace info, check,
# convert --to chrome, dump, diff, decode and encode, every folded and WET command, XRay diff, formats,
# help, report --format html), and CSI coverage check and dump, which the ranks share (one
# FILE each); small inputs, several FILEs where the command takes them, a failing FILE where
# it stops. One MPI job per number of ranks runs every command (tests/mpi/batch.c).
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/integration/lib/mpi.sh
G=tests/data/callgrind/pass
C=tests/data/csi
V=tests/data/csi_cov
CT=tests/data/corpus/csi-thirdparty/v1.4.0/tests
D=tests/data/dcfg/pass
P=tests/data/dcfg_trace/pass
DT=tests/data/corpus/dcfg-thirdparty/trace-vectors
WHOLE=tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
FO=tests/data/folded
W=tests/data/wet
X=tests/data/xray/pass
# Callgrind
batch "callgrind info" info $G/demo-combined.out $G/spec-features.out
batch "callgrind check" check $G/spec-features.out $G/call-tree.out \
    tests/data/callgrind/fail/$(ls tests/data/callgrind/fail | head -1) $G/demo-every.out
batch "callgrind annotate" annotate --instr $G/spec-features.out $G/spec-features.out
batch "callgrind convert" convert --to callgrind --no-compress $G/spec-features.out \
    $G/call-tree.out -o "$T/conv.out"
batch "callgrind dump" dump $G/spec-features.out $G/call-tree.out
batch "callgrind diff" diff --format=json --top 2 $G/demo-every.out $G/demo-every.out.1
# CSI and CSI coverage
batch "csi info" info $C/elf/foo-pt.o $C/elf/main-pt.o
batch "csi convert" convert --to csi $D/minimal.dcfg.json
batch "csi paths" paths $CT/fnptr/fnptr-O0.csi-static-PT.expected --function main --decode 1
batch "csi extract" extract $C/elf/main-pt.o -o "$T/main.PT"
batch "csi extract of none" extract $C/elf/no-pt.o
batch "csi-cc info" info $CT/funcs/funcs-O1.csi-static-CC.expected
batch "csi coverage check" check $V/pass/*.txt $V/fail/bbc-bad-line.txt \
    $CT/funcs/funcs-O1.csi-static-CC.expected $V/fail/bbc-empty-line-field.txt
batch "csi coverage dump" dump $CT/funcs/funcs-O0.csi-static-FC.expected \
    $CT/funcs/funcs-O0.csi-static-FC.expected
batch "csi coverage convert" convert --to csi-cc --form xml $CT/pi/pi-O0.csi-static-CC.expected
batch "csi coverage" coverage --format annotate $V/core/tiny.bin $V/core/tiny.core
# DCFG and DCFG-Trace
batch "dcfg info" info $D/minimal.dcfg.json $D/recursion.dcfg.json
batch "dcfg convert" convert --to callgrind $D/generated-hard.dcfg.json -o "$T/hard.out"
batch "dcfg diff" diff $D/minimal.dcfg.json $D/recursion.dcfg.json
batch "dcfg-trace info" info -v $DT/ok_multi_row.trace.json
batch "dcfg-trace check" check --dcfg $WHOLE $DT/ok_multi_row.trace.json
batch "dcfg-trace convert --to chrome" convert --to chrome --dcfg $P/tailjump.dcfg.json \
    $P/tailjump.trace.json
batch "dcfg-trace dump" dump $DT/ok_multi_row.trace.json
batch "dcfg-trace diff" diff $DT/ok_basic.trace.json $DT/ok_dict.trace.json
batch "dcfg-trace decode" decode --dcfg $WHOLE --what addrs $DT/ok_multi_row.trace.json
batch "dcfg-trace encode" encode --dcfg $P/tailjump.dcfg.json $P/tailjump.edges \
    -o "$T/tailjump.trace.json"
# folded
batch "folded info" info $FO/pass/small.diff.folded $FO/pass/handwritten.folded
batch "folded check" check $FO/pass/handwritten.folded $FO/fail/negative.folded \
    $FO/pass/cxx.folded
batch "folded report" report --format csv --sort self --top 5 $FO/pass/mtpool-per-thread.folded
batch "folded report of two, a usage error" report $FO/pass/cxx.folded $FO/pass/handwritten.folded
batch "folded convert" convert --to svg $FO/pass/handwritten.folded -o "$T/h.svg"
# WET
batch "wet info" info $W/pass/foo1.wet
batch "wet check" check $W/pass/foo1.wet $W/pass/foo1.history $W/fail/dangling_id.wet
batch "wet report" report $W/pass/foo1.wet
batch "wet annotate" annotate --criterion foo1.c:8 --source-dir $W/pass $W/pass/foo1.wet
batch "wet convert" convert --to wet $W/pass/nodebug_spacing.wet
batch "wet dump" dump $W/pass/foo1.wet
batch "wet slice" slice $W/pass/foo1.wet --criterion 2120:0 --depth 1
batch "wet chain" chain $W/pass/foo1.wet 2120:0 1870:0
batch "wet values" values $W/pass/foo1.wet 2118
# XRay, and the commands of no format
batch "xray diff" diff $X/mtpool.fdr $X/mtpool-wrapped.fdr
# report --format html runs on rank 0 alone, for every format
batch "xray report html" report --format html $X/mtpool.fdr $X/calltree.fdr -o "$T/x.html"
batch "callgrind report html" report --format html $G/demo-every.out $G/demo-every.out.1 \
    -o "$T/c.html"
batch "dcfg report html" report --format html $D/recursion.dcfg.json -o "$T/d.html"
batch "formats" formats
batch "help" help report
batch_run 1 2 3 5
[ $mpi_fail = 0 ] && echo "mpi_alone: ok"
exit $mpi_fail
