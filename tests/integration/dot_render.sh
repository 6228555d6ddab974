#!/usr/bin/env bash
# Graphviz renders every Graphviz export tracekit writes outside CSI (which
# csi_dot.sh covers): callgrind and XRay call graphs, DCFG control-flow graphs (whole,
# per routine, per loop) and WET slices (skipped when graphviz is missing).
set -u
cd "$(dirname "$0")/../.."
T=${TRACEKIT:-build/tracekit}
command -v dot >/dev/null || { echo "graphviz (dot) not installed"; exit 77; }
n=0
render() { # what, then the tracekit arguments
    local what=$1
    shift
    local out
    out=$("$T" "$@") || { echo "FAIL: tracekit $* failed"; exit 1; }
    printf '%s\n' "$out" | dot -Tsvg > /dev/null 2> /tmp/dot_render.$$ ||
        { echo "FAIL: dot rejects $what (tracekit $*):"; cat /tmp/dot_render.$$; rm -f /tmp/dot_render.$$; exit 1; }
    rm -f /tmp/dot_render.$$
    n=$((n + 1))
}
for f in examples/fib.callgrind tests/data/callgrind/pass/*.out; do
    [ -s "$f" ] || continue # the empty base file of a --separate-threads run
    render "$f" convert --to dot "$f"
    render "$f (all nodes)" convert --to dot --node-threshold 0 --edge-threshold 0 "$f"
done
render "dcfg-trace call graph" convert --to dot --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json tests/data/dcfg_trace/pass/gen11.level9.trace.json
for f in examples/fib.xray tests/data/xray/pass/*.fdr; do
    render "$f" convert --to dot "$f"
done
for f in examples/hello.dcfg.json tests/data/dcfg/pass/*.dcfg.json; do
    render "$f" convert --to dot "$f"
done
P=tests/data/corpus/dcfg-thirdparty/passlab-DCFG
if [ -d "$P" ]; then
    for f in "$P"/*.json*; do
        render "$f (routine of node 31)" convert --to dot --routine 31 "$f"
    done
fi
render "wet backward slice" slice --criterion 2118:0 --to dot tests/data/wet/pass/foo1.wet
render "wet forward slice" slice --criterion foo1.c:4 --forward --to dot tests/data/wet/pass/foo1.wet
echo "ok: dot renders $n graphs"
