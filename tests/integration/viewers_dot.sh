#!/usr/bin/env bash
# Viewer test: every Graphviz export is one graph that `dot -Tsvg` draws whole, within 20 s, at
# most 16,000 px wide and high at Graphviz's 96 dpi (ImageMagick's default limit: a 24,711 px
# wide call graph of full C++ signatures was refused), with nodes named as a reader wants them:
#  - one "digraph" per file (a CSI file with two functions wrote two: dot -Tpng drew the first);
#  - no node drawn with its bare id ("node1" for a DCFG's START);
#  - no "0 calls" (a root is called by nobody) and no "1 calls";
#  - C++ names shortened (KCachegrind's "Shorten Templates", gprof2dot's --strip) unless
#    --full-names;
#  - every function of a CSI file in the picture (of one over 100 blocks, its first functions
#    unless --all); fib with its 177 calls (the XRay root calls it once, itself 176 times).
# Inputs: callgrind profiles (the C++ ones at every node; CPython's, cut to its hottest
# functions), XRay traces, DCFG, DCFG-Trace, CSI;
# and traces of real programs made now (tests/integration/lib/viewers_real.sh): valgrind's
# callgrind, XRay of a threaded program, tracekit record --trace of gzip and of the threaded
# program (a DCFG of more blocks than Graphviz lays out draws its hottest routines; the
# hottest loop of each).
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/viewers_real.sh
command -v dot >/dev/null || { echo "graphviz (dot) not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

draw() { # NAME TRACEKIT-ARGS...: the export, drawn, checked; the SVG is $tmp/NAME.svg
    local name=$1
    shift
    "$TRACEKIT" "$@" -o "$tmp/$name.dot" 2>"$tmp/$name.err" ||
        { echo "FAIL: tracekit $*"; cat "$tmp/$name.err"; fail=1; return; }
    n=$((n + 1))
    local graphs
    graphs=$(grep -cE '^(strict )?(di)?graph( |\{)' "$tmp/$name.dot")
    [ "$graphs" = 1 ] || { echo "FAIL: $name: $graphs graphs in one file"; fail=1; }
    timeout 20 dot -Tsvg "$tmp/$name.dot" -o "$tmp/$name.svg" 2>"$tmp/err" ||
        { echo "FAIL: $name: dot -Tsvg failed or took over 20 s"; head -3 "$tmp/err"; fail=1; return; }
    python3 - "$tmp/$name.svg" "$name" <<'PY' || fail=1
import re, sys
svg = open(sys.argv[1]).read()
m = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
w, h = (float(m.group(1)) * 96 / 72, float(m.group(2)) * 96 / 72) if m else (0, 0)
bad = []
if not m or w > 16000 or h > 16000:
    bad.append(f"{w:.0f} x {h:.0f} px")
texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
if any(re.fullmatch(r"node\d+", t) for t in texts):
    bad.append("a node drawn with its bare id")
if any(t in ("0 calls", "1 calls") for t in texts):
    bad.append("'0 calls' or '1 calls'")
print(("FAIL: " if bad else "ok: ") + f"{sys.argv[2]}: {w:.0f} x {h:.0f} px, {len(texts)} texts"
      + (": " + "; ".join(bad) if bad else ""))
sys.exit(1 if bad else 0)
PY
}
has_text() { # NAME TEXT
    grep -q ">$2<" "$tmp/$1.svg" || { echo "FAIL: $1: no '$2' in the picture"; fail=1; }
}

for f in tests/data/callgrind/pass/{gzip,demo-default,mutual,cxx-default,cxx-callers}.out; do
    b=$(basename "$f" .out)
    draw "cg-$b" convert --to dot "$f"
done
# C++ names shortened: no template arguments, no parameter lists (--full-names keeps them)
for b in cxx-default cxx-callers; do
    if grep -q 'std::allocator\|(int)\|(unsigned long)' "$tmp/cg-$b.svg"; then
        echo "FAIL: cg-$b: full C++ names in the picture"; fail=1
    fi
done
draw cg-cxx-full convert --to dot --full-names tests/data/callgrind/pass/cxx-default.out
grep -q 'std::allocator' "$tmp/cg-cxx-full.svg" || { echo "FAIL: --full-names shortened"; fail=1; }
# A CPython profile (tests/data/callgrind/large: 2,133 functions, hundreds of call arcs inside
# the eval loop's recursion; drawn whole, its 135 functions over 0.5 % with every arc of the
# recursion took dot 14 s of CPU time): cut to its hottest functions, the label saying what is left
# out, and the functions `report` lists first (by self cost) among those drawn; --all keeps
# every function.
cpython=tests/data/callgrind/large/cpython-json.out.xz
draw cg-cpython convert --to dot "$cpython"
grep -q 'label=.*of 2133 functions.*--all draws every one' "$tmp/cg-cpython.dot" ||
    { echo "FAIL: cg-cpython: the label does not say what is left out"; fail=1; }
"$TRACEKIT" report -n 20 --format csv "$cpython" >"$tmp/cpython.csv"
python3 - "$tmp/cpython.csv" "$tmp/cg-cpython.svg" <<'PY' || fail=1
import csv, html, re, sys
names = [r["name"] for r in csv.DictReader(open(sys.argv[1]))]
texts = {html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", open(sys.argv[2]).read())}
missing = [n for n in names if n not in texts]
print(("FAIL" if missing or len(names) != 20 else "ok") +
      f": cg-cpython: {len(names) - len(missing)} of report's first {len(names)} functions drawn"
      + (": missing " + ", ".join(missing) if missing else ""))
sys.exit(1 if missing or len(names) != 20 else 0)
PY
"$TRACEKIT" convert --to dot --all "$cpython" -o "$tmp/cpython-all.dot"
nodes=$(grep -c '^  f[0-9]* \[label' "$tmp/cpython-all.dot")
[ "$nodes" = 2133 ] && ! grep -q 'draws every one' "$tmp/cpython-all.dot" ||
    { echo "FAIL: --all drew $nodes of the 2133 functions"; fail=1; }
draw xray-fib convert --to dot -m examples/fib-xray.bin examples/fib.xray
has_text xray-fib "177 calls"
has_text xray-fib "thread 10074"
draw xray-mtpool convert --to dot -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.fdr
draw dcfg-hello convert --to dot examples/hello.dcfg.json
has_text dcfg-hello START
has_text dcfg-hello END
draw dcfg-trace convert --to dot --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json \
    tests/data/dcfg_trace/pass/gen11.level9.trace.json
draw csi-loop convert --to dot examples/loop.debug_PT
has_text csi-loop rand
has_text csi-loop main
# the CSI metadata of every routine of SDE's DCFG of a run (130 functions, 1,848 blocks: dot
# did not finish in a minute): its first functions while their blocks add up to 100, and a
# note; --all writes every function
"$TRACEKIT" convert --to csi tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 \
    -o "$tmp/whole.csi" 2>/dev/null || { echo "FAIL: convert --to csi"; fail=1; }
draw csi-whole convert --to dot "$tmp/whole.csi"
grep -q "note: 1848 blocks are more than Graphviz lays out: drawing the first" "$tmp/csi-whole.err" ||
    { echo "FAIL: csi-whole: no note of what is drawn"; cat "$tmp/csi-whole.err"; fail=1; }
clusters=$("$TRACEKIT" convert --to dot --all "$tmp/whole.csi" | grep -c '^ *subgraph cluster')
[ "$clusters" = 130 ] || { echo "FAIL: csi --all: $clusters of the 130 functions"; fail=1; }
viewers_real
for cg in $real_callgrind $real_callgrind_mt; do
    draw "real-$(basename "$cg")" convert --to dot "$cg"
done
[ -n "$real_xray" ] && draw real-xray convert --to dot -m "$real_mtpool" "$real_xray"
for d in ${real_gzip_dcfg:+gzip} ${real_mt_dcfg:+mt}; do
    dcfg=$real/$d.dcfg.json
    draw "real-$d-trace" convert --to dot --dcfg "$dcfg" "$real/$d.trace.json"
    draw "real-$d-dcfg" convert --to dot "$dcfg"
    grep -q "drawing its" "$tmp/real-$d-dcfg.err" ||
        { echo "FAIL: real-$d-dcfg: no note of what is drawn"; fail=1; }
    # its hottest loop, as report --format html draws it
    head=$("$TRACEKIT" report --format json "$dcfg" | python3 -c \
        'import json, sys; print(json.load(sys.stdin)["processes"][0]["loop_table"][0]["loop"])')
    draw "real-$d-loop" convert --to dot --loop "$head" "$dcfg"
done
echo "$n Graphviz exports drawn"
exit $fail
