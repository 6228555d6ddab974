#!/usr/bin/env bash
# Viewer test: tracekit's exports open in speedscope 1.25 (tests/viewers/package.json) inside
# headless Chromium, with the expected names and totals (tests/viewers/expect_speedscope.py):
# Chrome JSON, folded stacks and Callgrind of the XRay samples and committed real traces,
# Callgrind and folded stacks of valgrind profiles, Callgrind of a DCFG, Chrome JSON, folded
# stacks and Callgrind of a DCFG-Trace, and the per-thread Callgrind files (of several XRay
# traces too, a process's threads apart from its repeat's, and their folded stacks per thread;
# a trace after an events-only thread of its pid, keyed as in Chrome); the same of traces
# of real programs made now (tests/integration/lib/viewers_real.sh: XRay of a threaded program,
# valgrind's callgrind, tracekit record --trace of gzip and of the threaded program). One
# browser loads every file (tests/viewers/speedscope.js).
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/viewers.sh
. tests/integration/lib/viewers_real.sh
viewers_need_browser
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cases=$tmp/cases
: >"$cases"
X=tests/data/xray

# XRay: name bin trace
xray() {
    local name=$1 bin=$2 trace=$3
    "$TRACEKIT" convert --to folded -m "$bin" "$trace" >"$tmp/$name.folded" || fail=1
    "$TRACEKIT" convert --to folded --weight=calls -m "$bin" "$trace" >"$tmp/$name.calls" || fail=1
    "$TRACEKIT" convert --to chrome -m "$bin" "$trace" -o "$tmp/$name.json" || fail=1
    "$TRACEKIT" convert --to callgrind -m "$bin" "$trace" -o "$tmp/$name.callgrind" || fail=1
    mkdir -p "$tmp/pt-$name"
    "$TRACEKIT" convert --to callgrind --per-thread -m "$bin" "$trace" \
        -o "$tmp/pt-$name/callgrind.out.$name" || fail=1
    echo "folded $tmp/$name.folded" >>"$cases"
    echo "chrome $tmp/$name.json $tmp/$name.folded 1e-3 $tmp/$name.calls" >>"$cases"
    echo "callgrind $tmp/$name.callgrind $tmp/$name.folded" >>"$cases"
    for f in "$tmp/pt-$name"/*; do echo "callgrind $f" >>"$cases"; done
}
xray fib examples/fib-xray.bin examples/fib.xray
xray calltree $X/bin/calltree $X/pass/calltree.fdr
xray typed $X/bin/calltree-typed $X/pass/calltree-typed.fdr
xray mtpool $X/bin/mtpool $X/pass/mtpool.fdr
viewers_real
[ -n "$real_xray" ] && xray real-mtpool "$real_mtpool" "$real_xray"
# several traces, one of them twice: each thread's root names its process ("process KEY thread
# TID", the repeated trace's keyed 20000006259), so that the two traces' threads stay apart
several="$X/pass/mtpool.fdr $X/pass/mtpool.basic $X/pass/mtpool.fdr"
"$TRACEKIT" convert --to folded -m $X/bin/mtpool $several >"$tmp/several.folded" || fail=1
"$TRACEKIT" convert --to callgrind -m $X/bin/mtpool $several -o "$tmp/several.callgrind" || fail=1
mkdir -p "$tmp/pt-several"
"$TRACEKIT" convert --to callgrind --per-thread -m $X/bin/mtpool $several \
    -o "$tmp/pt-several/callgrind.out.several" || fail=1
grep -q '^fn=.*process 20000006259 thread 6263$' "$tmp/several.callgrind" ||
    { echo "FAIL: several traces: no root of the repeated trace's thread"; fail=1; }
echo "folded $tmp/several.folded" >>"$cases"
echo "callgrind $tmp/several.callgrind $tmp/several.folded" >>"$cases"
for f in "$tmp/pt-several"/*; do echo "callgrind $f" >>"$cases"; done
# those files' folded stacks per thread: each root "process KEY thread TID" as XRay's own, so
# that speedscope (which merges equal frames) keeps the repeated trace's threads apart
"$TRACEKIT" convert --to folded --per-thread "$tmp/pt-several"/* >"$tmp/pt-several.folded" || fail=1
"$TRACEKIT" convert --to folded --per-thread $several >"$tmp/several-pt.folded" || fail=1
[ "$(cut -d';' -f1 "$tmp/pt-several.folded" | sort -u)" = \
    "$(cut -d';' -f1 "$tmp/several-pt.folded" | sort -u)" ] &&
    [ "$(cut -d';' -f1 "$tmp/pt-several.folded" | sort -u | wc -l)" = 15 ] ||
    { echo "FAIL: several traces: the Callgrind files' folded roots are not XRay's 15"; fail=1; }
echo "folded $tmp/pt-several.folded" >>"$cases"
# a trace whose thread has only events before one of its pid: keyed as in Chrome JSON
evonly="$X/pass/calltree-events-only.fdr $X/pass/calltree-typed.fdr"
"$TRACEKIT" convert --to folded --per-thread $evonly >"$tmp/evonly.folded" 2>/dev/null || fail=1
grep -q '^process 10000006242 thread 6242;' "$tmp/evonly.folded" ||
    { echo "FAIL: events-only thread: the later trace's thread is not keyed"; fail=1; }
echo "folded $tmp/evonly.folded" >>"$cases"
# speedscope imports *.chrome.json as a Chrome performance recording (docs/viewers.md)
cp "$tmp/fib.json" "$tmp/fib.chrome.json"
echo "rejected $tmp/fib.chrome.json" >>"$cases"

# Callgrind profiles written by valgrind: the conversion shows as the original does (speedscope
# reads valgrind's profiles of one position column only: not --dump-instr=yes ones)
for f in tests/data/callgrind/pass/{gzip,demo-default,threads-combined,cxx-default}.out \
    $real_callgrind $real_callgrind_mt; do
    # (not threads-combined: three parts in one file, speedscope refuses a second "events:")
    p=$(basename "$f" .out)
    "$TRACEKIT" convert --to folded "$f" -o "$tmp/$p.folded" || fail=1
    echo "folded $tmp/$p.folded" >>"$cases"
    grep -q '^positions: line$' "$f" && [ "$(grep -c '^events:' "$f")" = 1 ] || continue
    cp "$f" "$tmp/$p.orig.callgrind"
    "$TRACEKIT" convert --to callgrind "$f" -o "$tmp/$p.callgrind" || fail=1
    echo "load $tmp/$p.orig.callgrind" >>"$cases"
    echo "same $tmp/$p.callgrind $tmp/$p.orig.callgrind" >>"$cases"
done

# DCFG and DCFG-Trace; a DCFG of two threads in one file (the threads' costs added up under
# their roots "thread 0" and "thread 1": speedscope refused the second part's "events:" line)
# and as a file per thread
"$TRACEKIT" convert --to callgrind examples/hello.dcfg.json -o "$tmp/hello-dcfg.callgrind" || fail=1
echo "callgrind $tmp/hello-dcfg.callgrind" >>"$cases"
G=tests/data/dcfg/pass/generated-hard.dcfg.json
"$TRACEKIT" convert --to callgrind $G -o "$tmp/dcfg-threads.callgrind" || fail=1
mkdir -p "$tmp/pt-dcfg"
"$TRACEKIT" convert --to callgrind --per-thread $G -o "$tmp/pt-dcfg/callgrind.out.dcfg" || fail=1
[ "$(ls "$tmp/pt-dcfg" | wc -l)" = 2 ] || { echo "FAIL: --per-thread: not a file per thread"; fail=1; }
echo "callgrind-estimated $tmp/dcfg-threads.callgrind" >>"$cases"
for f in "$tmp/pt-dcfg"/*; do echo "callgrind-estimated $f" >>"$cases"; done
# real DCFGs: every routine under its thread's root, ld.so's jump to _start and the PLT stubs'
# jumps included (the thread roots' totals add up to the program's)
for d in $real_gzip_dcfg $real_mt_dcfg; do
    name=real-$(basename "$d" .dcfg.json)-dcfg
    "$TRACEKIT" convert --to callgrind "$d" -o "$tmp/$name.callgrind" || fail=1
    echo "callgrind-estimated $tmp/$name.callgrind" >>"$cases"
done
# DCFG-Trace: its callgrind export shows the functions of its folded stacks with their totals
# (ld.so's _start, which jumps to the program's _start, with the whole run: 128k of 32.6M
# instructions before the jumps were frames)
D=tests/data/dcfg_trace/pass
for t in examples/hello.trace.json:examples/hello.dcfg.json \
    $D/gen11.intel.trace.json:$D/gen11.dcfg.json $D/tailjump.trace.json:$D/tailjump.dcfg.json \
    ${real_gzip_trace:+$real_gzip_trace:$real_gzip_dcfg} \
    ${real_mt_trace:+$real_mt_trace:$real_mt_dcfg}; do
    trace=${t%%:*} dcfg=${t#*:} name=$(basename "$trace")
    name=${name%%.*}
    case $trace in "$real"/*) name=real-$name ;; esac
    "$TRACEKIT" convert --to folded --dcfg "$dcfg" "$trace" -o "$tmp/$name-trace.folded" || fail=1
    "$TRACEKIT" convert --to chrome --dcfg "$dcfg" "$trace" -o "$tmp/$name-trace.json" || fail=1
    "$TRACEKIT" convert --to callgrind --dcfg "$dcfg" "$trace" -o "$tmp/$name-trace.callgrind" || fail=1
    echo "folded $tmp/$name-trace.folded" >>"$cases"
    echo "chrome $tmp/$name-trace.json $tmp/$name-trace.folded 1 $tmp/$name-trace.folded" >>"$cases"
    echo "callgrind $tmp/$name-trace.callgrind $tmp/$name-trace.folded" >>"$cases"
done

# shellcheck disable=SC2046
viewers_node tests/viewers/speedscope.js $(awk '{ print $2 }' "$cases") >"$tmp/results" ||
    { echo "speedscope.js failed"; fail=1; }
python3 tests/viewers/expect_speedscope.py "$TRACEKIT" "$tmp/results" "$cases" || fail=1
exit $fail
