#!/usr/bin/env bash
# tracekit's main jobs on the bundled sample traces (examples/).
#   scripts/demo.sh [path/to/tracekit]
set -uo pipefail
cd "$(dirname "$0")/.."
tk=${1:-build/tracekit}
status=0

run() {
    echo
    echo "\$ tracekit $*"
    "$tk" "$@"
    local rc=$?
    if [ $rc -ne 0 ]; then echo "(exit status $rc)"; status=1; fi
}
# show only the first lines of a long output
run_head() {
    local n=$1; shift
    echo
    echo "\$ tracekit $* | head -$n"
    "$tk" "$@" | head -"$n"
    local rc=${PIPESTATUS[0]}
    # 141: stopped by head closing the pipe, not a failure
    if [ $rc -ne 0 ] && [ $rc -ne 141 ]; then echo "(exit status $rc)"; status=1; fi
}

echo "tracekit demo: the formats, then the main job of each format on a sample in examples/"
run formats

echo; echo "## Callgrind: valgrind --tool=callgrind on examples/src/fib.c"
run check examples/fib.callgrind
run_head 12 report --top 8 examples/fib.callgrind
run report --tree both --top 2 examples/fib.callgrind
echo
echo "\$ tracekit annotate --source-dir examples examples/fib.callgrind | (the part for src/fib.c)"
"$tk" annotate --source-dir examples examples/fib.callgrind | sed -n '/^=* src\/fib.c/,/^=====/p' | head -40

echo; echo "## XRay FDR: clang -fxray-instrument on the same program"
run info examples/fib.xray
run report --instr-map examples/fib-xray.bin examples/fib.xray
run_head 6 convert --to folded --instr-map examples/fib-xray.bin examples/fib.xray
run_head 8 convert --to chrome --instr-map examples/fib-xray.bin examples/fib.xray

echo; echo "## DCFG and DCFG-Trace: a small loop"
run check examples/hello.dcfg.json
run report examples/hello.dcfg.json
run check --dcfg examples/hello.dcfg.json examples/hello.trace.json
run_head 8 decode --dcfg examples/hello.dcfg.json --what blocks examples/hello.trace.json

echo; echo "## CSI path-tracing metadata: the CSI guide's 'loop' example"
run check examples/loop.debug_PT
run report examples/loop.debug_PT
run paths examples/loop.debug_PT --function main --list

echo; echo "## WET: the documentation's foo1.c example"
run check examples/foo1.wet
run slice examples/foo1.wet --criterion 2118:0 --lines

echo
if [ $status -eq 0 ]; then echo "demo done."; else echo "demo: some commands failed"; fi
exit $status
