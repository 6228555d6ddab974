#!/usr/bin/env bash
# Graphviz accepts tracekit's dot output for every CSI test output, plain and
# with each path highlighted (skipped when graphviz is not installed).
set -u
cd "$(dirname "$0")/../.."
T=${TRACEKIT:-build/tracekit}
C=tests/data/corpus/csi-thirdparty
command -v dot >/dev/null || { echo "graphviz (dot) not installed"; exit 77; }
[ -d "$C" ] || { echo "corpus copy missing"; exit 77; }
n=0
for f in $C/v1.4.0/tests/*/*-PT.expected; do
    "$T" convert --to dot "$f" | dot -Tsvg > /dev/null || { echo "FAIL: dot rejects $f"; exit 1; }
    n=$((n + 1))
done
for id in 0 1 2 3 4 5; do
    "$T" convert --to dot --function main --path $id $C/docs-examples/loop.debug_PT.txt | dot -Tsvg > /dev/null \
        || { echo "FAIL: dot rejects path $id"; exit 1; }
done
echo "ok: dot renders $n files and 6 highlighted paths"
