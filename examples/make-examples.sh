#!/usr/bin/env bash
# Regenerates the sample traces in examples/ with the real tools:
#   fib.callgrind   valgrind --tool=callgrind on examples/src/fib.c
#   fib.xray        clang -fxray-instrument + the XRay FDR runtime on the same program
# The DCFG, DCFG-Trace, CSI and WET samples are hand-made small files that follow
# the specs (no producer of those formats runs here); see examples/README.md.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gcc -O1 -g -fdebug-prefix-map="$(pwd)"=. -o "$tmp/fib" src/fib.c
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tmp/fib" 15 >/dev/null 2>&1
# keep the file small and free of this machine's paths
sed -e "s|$tmp/||g" -e "s|$(pwd)/||g" "$tmp/cg.out" > fib.callgrind

clang -O1 -g -fdebug-prefix-map="$(pwd)"=. -DWITH_XRAY -fxray-instrument -fxray-instruction-threshold=1 -o "$tmp/fib-xray" src/fib.c
( cd "$tmp" && XRAY_OPTIONS="patch_premain=false xray_logfile_base=xray-log.fib. verbosity=0" ./fib-xray 10 2>/dev/null >/dev/null )
cp "$tmp"/xray-log.fib.* fib.xray
cp "$tmp/fib-xray" fib-xray.bin   # the instrumented binary: function names for the trace
echo "examples regenerated" >&2
