#!/usr/bin/env bash
# Viewer test: tracekit's own flame graphs (convert --to svg, diff --format svg) open in
# headless Chromium from file:// without a console error, every frame has the count of its call
# path in the folded stacks of the same input, clicking a frame zooms to it and "Reset zoom"
# comes back, a search shows the matched share of the outermost matches
# (tests/viewers/flamegraph.js): XRay (time, calls, per thread, reversed), callgrind (C++ names,
# a recursion), DCFG-Trace, folded stacks as input, and differential graphs of two valgrind
# profiles (also read back from its folded stacks), of two XRay traces of one program (time
# and calls) and of two sets of them (A... --vs B...); traces of real programs made now (tests/integration/lib/viewers_real.sh: XRay of
# a threaded program, two runs of it diffed, valgrind's callgrind, tracekit record --trace of
# gzip).
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/viewers.sh
. tests/integration/lib/viewers_real.sh
viewers_need_browser
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
both() { # NAME SEARCH TRACEKIT-ARGS... (convert; --to svg and --to folded of the same)
    local name=$1 search=$2
    shift 2
    "$TRACEKIT" convert --to svg "$@" -o "$tmp/$name.svg" &&
        "$TRACEKIT" convert --to folded "$@" -o "$tmp/$name.folded" ||
        { echo "FAIL: tracekit convert $*"; fail=1; return; }
    triples+=("$tmp/$name.svg" "$tmp/$name.folded" "$search")
}
triples=()
X=tests/data/xray
both fib fib -m examples/fib-xray.bin examples/fib.xray
both mtpool 'quick|parse' -m $X/bin/mtpool $X/pass/mtpool.fdr --per-thread
both mtpool-calls hash --weight=calls -m $X/bin/mtpool $X/pass/mtpool.fdr
both calltree 'idle|run_round' -m $X/bin/calltree $X/pass/calltree.fdr
both cxx 'std::' tests/data/callgrind/pass/cxx-default.out
both mutual is_ tests/data/callgrind/pass/mutual.out
both gen11 f --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json tests/data/dcfg_trace/pass/gen11.intel.trace.json
viewers_real
[ -n "$real_xray" ] && both real-xray 'quick|parse' -m "$real_mtpool" "$real_xray" --per-thread
[ -n "$real_callgrind" ] && both real-callgrind 'dl_' "$real_callgrind"
[ -n "$real_gzip_trace" ] &&
    both real-gzip-trace 'libc_start' --dcfg "$real_gzip_dcfg" "$real_gzip_trace"
# folded stacks as input (other tools' output, or tracekit's own): the same frames
for f in tests/data/folded/pass/*.folded; do
    n=$(basename "$f" .folded)
    "$TRACEKIT" convert --to svg "$f" -o "$tmp/in-$n.svg" || { echo "FAIL: convert $f"; fail=1; continue; }
    triples+=("$tmp/in-$n.svg" "$f" main)
done
"$TRACEKIT" convert --to svg --reverse --title "fib, icicle" -m examples/fib-xray.bin examples/fib.xray -o "$tmp/icicle.svg" || fail=1
triples+=("$tmp/icicle.svg" "$tmp/fib.folded" -)
grep -q '>fib, icicle<' "$tmp/icicle.svg" || { echo "FAIL: --title"; fail=1; }
A=tests/data/callgrind/pass/demo-default.out B=tests/data/callgrind/pass/demo-recs.out
"$TRACEKIT" diff --format svg "$A" "$B" -o "$tmp/diff.svg" &&
    "$TRACEKIT" diff --format folded "$A" "$B" -o "$tmp/diff.folded" || fail=1
triples+=("$tmp/diff.svg" "$tmp/diff.folded" main)
# the differential stacks read back as input draw the same graph
"$TRACEKIT" convert --to svg "$tmp/diff.folded" -o "$tmp/diff-in.svg" || fail=1
triples+=("$tmp/diff-in.svg" "$tmp/diff.folded" main)
# demo-recs runs more than demo-default: red where it grew; the other way round, blue
"$TRACEKIT" diff --format svg "$B" "$A" -o "$tmp/diff-back.svg" || fail=1
grep -q 'fill="rgb(255,[0-9]*,[0-9]*)"' "$tmp/diff.svg" &&
    grep -q 'fill="rgb([0-9]*,[0-9]*,255)"' "$tmp/diff-back.svg" ||
    { echo "FAIL: the differential graphs have no red or no blue frame"; fail=1; }
# XRay: two traces of mtpool (20 and 60 jobs), by self time and by calls (handle_job's path:
# 6775 calls where there were 2252, red; the other way round, blue); two real runs (40 and 80
# jobs)
xdiff() { # NAME SEARCH TRACEKIT-DIFF-ARGS...: diff --format svg and --format folded of the same
    local name=$1 search=$2
    shift 2
    "$TRACEKIT" diff --format svg "$@" -o "$tmp/$name.svg" &&
        "$TRACEKIT" diff --format folded "$@" -o "$tmp/$name.folded" ||
        { echo "FAIL: tracekit diff $*"; fail=1; return; }
    triples+=("$tmp/$name.svg" "$tmp/$name.folded" "$search")
}
xdiff xray-diff 'quick|parse' -m $X/bin/mtpool $X/pass/mtpool.basic $X/pass/mtpool.fdr
xdiff xray-diff-calls handle_job --weight calls -m $X/bin/mtpool $X/pass/mtpool.basic $X/pass/mtpool.fdr
xdiff xray-diff-back handle_job --weight calls -m $X/bin/mtpool $X/pass/mtpool.fdr $X/pass/mtpool.basic
grep -q '<title>handle_job (2252 -> 6775 calls[^<]*</title><rect [^>]*fill="rgb(255,' "$tmp/xray-diff-calls.svg" &&
    grep -q '<title>handle_job (6775 -> 2252 calls[^<]*</title><rect [^>]*fill="rgb([0-9]*,[0-9]*,255)' "$tmp/xray-diff-back.svg" ||
    { echo "FAIL: XRay's differential graphs: handle_job not red where it grew, blue where it shrank"; fail=1; }
xdiff xray-diff-sets 'quick|parse' -m $X/bin/mtpool $X/pass/mtpool.basic $X/pass/mtpool-wrapped.fdr --vs $X/pass/mtpool.fdr $X/pass/mtpool.fdr $X/pass/mtpool.basic
[ -n "$real_xray_more" ] &&
    xdiff real-xray-diff 'quick|parse' -m "$real_mtpool" "$real_xray" "$real_xray_more"
viewers_node tests/viewers/flamegraph.js "${triples[@]}" || fail=1
exit $fail
