#!/usr/bin/env bash
# Viewer test: every Chrome JSON export passes the Trace Event Format checker
# (tests/viewers/trace_event_check.py: strict JSON, fields per phase, ts in microseconds, X
# nesting and B/E pairing per thread, metadata events of known kinds, one of a kind per process
# or thread): the XRay sample and every committed XRay trace (with and without the instrumented
# binary, --thread), the DCFG-Trace sample and traces, and traces of real programs made now
# (tests/integration/lib/viewers_real.sh: XRay of a threaded program, tracekit record --trace
# of gzip and of the threaded program). The thread names of viewers come from
# the ids (no process_name "pid P" / thread_name "thread T": speedscope showed
# "pid 10443 (pid 10443), thread 10445 (tid 10445)").
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/viewers_real.sh
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
X=tests/data/xray
export_chrome() { # NAME TRACEKIT-ARGS...
    local name=$1
    shift
    "$TRACEKIT" convert --to chrome "$@" -o "$tmp/$name.json" 2>"$tmp/err" ||
        { echo "FAIL: tracekit convert --to chrome $*"; cat "$tmp/err"; fail=1; return; }
    n=$((n + 1))
}
export_chrome fib -m examples/fib-xray.bin examples/fib.xray
for t in "$X"/pass/*.fdr "$X"/pass/*.basic; do
    b=$(basename "$t")
    case $b in calltree-typed*) bin=$X/bin/calltree-typed ;; calltree-abs-nopie*) bin=$X/bin/calltree-abs-nopie ;;
        calltree-abs-pie*) bin=$X/bin/calltree-abs-pie ;; calltree*) bin=$X/bin/calltree ;; *) bin=$X/bin/mtpool ;; esac
    export_chrome "$b" -m "$bin" "$t"
    export_chrome "$b-ids" "$t"
done
export_chrome mtpool-thread --thread 6261 -m $X/bin/mtpool $X/pass/mtpool.fdr
# several traces with equal pids (the same trace twice; two traces of one pid), -j 1 and -j 3:
# each trace a process of its own, its metadata once per (pid, tid)
for j in 1 3; do
    export_chrome "pids-same-j$j" -j $j -m $X/bin/mtpool $X/pass/mtpool.fdr $X/pass/mtpool.basic \
        $X/pass/mtpool.fdr
    export_chrome "pids-typed-j$j" -j $j -m $X/bin/calltree-typed $X/pass/calltree-typed.fdr \
        $X/pass/calltree-typed-be.fdr $X/pass/calltree-typed.fdr
done
export_chrome hello-trace --dcfg examples/hello.dcfg.json examples/hello.trace.json
for t in tests/data/dcfg_trace/pass/gen11.*.trace.json; do
    export_chrome "$(basename "$t" .json)" --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json "$t"
done
export_chrome tailjump-trace --dcfg tests/data/dcfg_trace/pass/tailjump.dcfg.json \
    tests/data/dcfg_trace/pass/tailjump.trace.json
viewers_real
[ -n "$real_xray" ] && export_chrome real-mtpool -m "$real_mtpool" "$real_xray"
[ -n "$real_gzip_trace" ] &&
    export_chrome real-gzip-trace --dcfg "$real_gzip_dcfg" "$real_gzip_trace"
[ -n "$real_mt_trace" ] && export_chrome real-mt-trace --dcfg "$real_mt_dcfg" "$real_mt_trace"
python3 tests/viewers/trace_event_check.py "$tmp"/*.json || fail=1
if grep -l '"name":"\(process\|thread\)_name"' "$tmp"/*.json; then
    echo "FAIL: names made of the ids"; fail=1
fi
echo "$n Chrome JSON exports checked"
[ $n -ge 20 ] || { echo "too few exports"; exit 1; }
exit $fail
