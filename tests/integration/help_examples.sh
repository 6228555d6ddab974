#!/usr/bin/env bash
# The examples of `tracekit help FORMAT` work: each one runs (in a scratch folder of its own,
# where the file names of the examples are the sample files of the repository) and exits 0.
# An example that pipes into Graphviz's dot is run only where dot is installed.
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
TRACEKIT=${TRACEKIT:-build/tracekit}
case "$TRACEKIT" in /*) ;; *) TRACEKIT=$root/$TRACEKIT ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/files"
ln -s "$TRACEKIT" "$tmp/bin/tracekit"
# the names the examples use, and the samples they stand for
F=$tmp/files
for n in callgrind.out.1234 callgrind.out.1235; do ln -s "$root/examples/fib.callgrind" "$F/$n"; done
ln -s "$root/examples/src" "$F/src"
ln -s "$root/examples/fib-xray.bin" "$F/fib"
for n in xray-log.fib.Ab3dEf xray-log.fib.Xy9zWv; do ln -s "$root/examples/fib.xray" "$F/$n"; done
for n in prog before after; do bzip2 -c examples/hello.dcfg.json >"$F/$n.dcfg.json.bz2"; done
# DCFG merge's run/*.dcfg.json.bz2: two runs of one program (a link: cp -P copies it)
mkdir "$tmp/run-dcfg"
for n in 1 2; do bzip2 -c examples/hello.dcfg.json >"$tmp/run-dcfg/$n.dcfg.json.bz2"; done
ln -s "$tmp/run-dcfg" "$F/run"
# DCFG-Trace: a DCFG and its trace with calls
mkdir "$tmp/files-dcfg-trace"
G=tests/data/dcfg_trace/pass/gen11
bzip2 -c $G.dcfg.json >"$tmp/files-dcfg-trace/prog.dcfg.json.bz2"
bzip2 -c $G.level9.trace.json >"$tmp/files-dcfg-trace/prog.trace.json.bz2"
ln -s "$root/tests/data/csi/elf/multifile-pt.exe" "$F/prog"
ln -s "$root/examples/loop.debug_PT" "$F/prog.debug_PT"
ln -s "$root/tests/data/wet/pass/foo1.wet" "$F/prog.wet"
ln -s "$root/tests/data/wet/pass/foo1.history" "$F/prog.history"
# CSI coverage: an executable with the three sections, a core of its crash, a section's text
C=$root/tests/data/csi_cov/core
for fmt in csi-cc csi-fc csi-bbc; do
    mkdir "$tmp/files-$fmt"
    ln -s "$C/tiny.bin" "$tmp/files-$fmt/prog"
    ln -s "$C/tiny.core" "$tmp/files-$fmt/core"
    ln -s "$C/tiny.CC.txt" "$tmp/files-$fmt/prog.CC"
done
mkdir "$tmp/files-folded"
ln -s "$root/tests/data/folded/pass/cxx.folded" "$tmp/files-folded/out.folded"

n=0 bad=0 skipped=0
for fmt in $("$TRACEKIT" formats | awk '/^[a-z]/ { print $1 }'); do
    lines=$("$TRACEKIT" help "$fmt" | sed -n '/^Examples:$/,$ s/^  tracekit //p')
    [ -n "$lines" ] || { echo "FAIL: tracekit help $fmt has no examples"; bad=$((bad + 1)); continue; }
    while IFS= read -r line; do
        case "$line" in *"| dot "*) command -v dot >/dev/null || { skipped=$((skipped + 1)); continue; } ;; esac
        n=$((n + 1))
        d=$tmp/run$n
        # (links replaced, never written through)
        mkdir "$d" && cp -P "$F"/* "$d"/
        [ -d "$tmp/files-$fmt" ] && cp -P --remove-destination "$tmp/files-$fmt"/* "$d"/
        out=$(sed -n 's/.* -o \([^ ]*\).*/\1/p' <<<"$line") # what the example writes
        [ -n "$out" ] && rm -f "$d/$out"
        if ! (cd "$d" && PATH="$tmp/bin:$PATH" bash -o pipefail -c "tracekit $line" >"$tmp/out" 2>&1); then
            echo "FAIL ($fmt): tracekit $line"
            sed 's/^/    /' "$tmp/out" | head -10
            bad=$((bad + 1))
        elif { [ -n "$out" ] && [ ! -s "$d/$out" ]; } || { [ -z "$out" ] && [ ! -s "$tmp/out" ]; }; then
            echo "FAIL ($fmt): tracekit $line wrote nothing"
            bad=$((bad + 1))
        fi
    done <<<"$lines"
done
[ $skipped -gt 0 ] && echo "$skipped examples need Graphviz's dot: not run"
echo "$n examples of 'tracekit help FORMAT' run, $bad failed"
[ $bad -eq 0 ]
