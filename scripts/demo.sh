#!/usr/bin/env bash
# tracekit's main jobs on the bundled sample traces (examples/).
#   scripts/demo.sh [path/to/tracekit]
set -uo pipefail
cd "$(dirname "$0")/.."
tk=${1:-build/tracekit}

run() {
    echo
    echo "\$ tracekit $*"
    "$tk" "$@"
    local rc=$?
    [ $rc -eq 0 ] || echo "(exit status $rc)"
}

# Run a command only when the format supports it today ('tracekit formats').
supports() { "$tk" formats | awk -v f="$1" -v c="$2" '$1 == f { getline; for (i = 2; i <= NF; i++) if ($i == c) ok = 1 } END { exit !ok }'; }

echo "tracekit demo: the formats, then each sample trace in examples/"
run formats

for f in examples/fib.callgrind examples/fib.xray examples/*.dcfg.json* examples/*.trace.json* examples/*.debug_PT examples/*.wet; do
    [ -f "$f" ] || continue
    fmt=$("$tk" info "$f" | awk '$1 == "format:" { print $2; exit }')
    run info "$f"
    supports "$fmt" check && run check "$f"
    supports "$fmt" report && run report "$f"
done
echo
echo "demo done."
