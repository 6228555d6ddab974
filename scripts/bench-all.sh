#!/usr/bin/env bash
# Runs every benchmark script bench/*.sh (not lib.sh) with TRACEKIT set.
set -uo pipefail
cd "$(dirname "$0")/.."
export TRACEKIT=$(realpath "${1:-build/tracekit}")
status=0
found=0
for b in bench/*.sh; do
    [ "$(basename "$b")" = lib.sh ] && continue
    found=1
    echo "== $b"
    bash "$b" || status=1
done
[ $found = 1 ] || echo "no benchmarks yet"
exit $status
