#!/bin/sh
# Regenerates the XRay test binaries and traces in this folder with clang 14 and the XRay runtime.
# Usage: ./make-traces.sh            (from tests/data/xray; needs clang-14, root for the real TSC)
#        TSC=emulated ./make-traces.sh   (skip the private mount namespace)
# Traces are written to pass/, binaries to bin/. A run takes about 10 s (calltree pauses 2.2 s to force
# a TSCWrap record).
#
# The runtime reads /sys/devices/system/cpu/cpu0/tsc_freq_khz; on a VM without it, it silently uses an
# emulated TSC (CLOCK_REALTIME ns, frequency 1e9, CPU 0). For the real-TSC traces we bind-mount a
# folder holding only tsc_freq_khz (measured by src/tscfreq.c) over cpu0/ in a private mount namespace.
set -eu
cd "$(dirname "$0")"
CC=${CC:-clang-14}
TSC=${TSC:-auto}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p bin pass

# -fdebug-prefix-map keeps the machine path of this folder out of the committed binaries
CFLAGS="-std=c2x -O1 -g -fxray-instrument -fxray-instruction-threshold=1 -fdebug-prefix-map=$(pwd)=."
$CC $CFLAGS -o bin/calltree src/calltree.c
$CC $CFLAGS -DWITH_TYPED_EVENTS -o bin/calltree-typed src/calltree.c
$CC $CFLAGS -pthread -o bin/mtpool src/mtpool.c
${CXX:-clang++-14} $(echo "$CFLAGS" | sed 's/-std=c2x/-std=c++17/') -o bin/cxxdemo src/cxxdemo.cpp
$CC -O1 -o "$work/tscfreq" src/tscfreq.c

real_tsc=no
if [ "$TSC" != emulated ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
    mkdir -p "$work/cpu0"
    "$work/tscfreq" > "$work/cpu0/tsc_freq_khz"
    real_tsc=yes
fi

# run TSCMODE MODE FDR_OPTIONS OUTPUT PROGRAM ARGS...
run() {
    tscmode=$1 mode=$2 fdropts=$3 out=$4
    shift 4
    rm -rf "$work/log" && mkdir "$work/log"
    env_cmd="env XRAY_OPTIONS=patch_premain=true\ xray_mode=xray-$mode\ verbosity=0\ xray_logfile_base=$work/log/ \
        XRAY_FDR_OPTIONS=$fdropts XRAY_BASIC_OPTIONS=func_duration_threshold_us=0 XRAY_CTL_MODE=$mode"
    if [ "$tscmode" = real ] && [ "$real_tsc" = yes ]; then
        unshare -m sh -c "mount --bind '$work/cpu0' /sys/devices/system/cpu/cpu0 && $env_cmd taskset -c 0 $*" >/dev/null 2>&1
    else
        sh -c "$env_cmd taskset -c 0 $*" >/dev/null 2>&1
    fi
    set -- "$work"/log/*
    [ $# -eq 1 ] || { echo "make-traces: expected one log for $out, got $#" >&2; exit 1; }
    mv "$1" "pass/$out"
}

small=func_duration_threshold_us=0
run real fdr $small calltree.fdr bin/calltree 1 2200
run emulated fdr $small calltree-emutsc.fdr bin/calltree 1 2200
run real fdr $small calltree-typed.fdr bin/calltree-typed 1
run real basic $small calltree.basic bin/calltree 1
run emulated basic $small calltree-emutsc.basic bin/calltree 1
# Multi-threaded: 4 workers; taskset is dropped so threads run on both CPUs.
runmt() {
    tscmode=$1 mode=$2 fdropts=$3 out=$4
    shift 4
    rm -rf "$work/log" && mkdir "$work/log"
    env_cmd="env XRAY_OPTIONS=patch_premain=true\ xray_mode=xray-$mode\ verbosity=0\ xray_logfile_base=$work/log/ \
        XRAY_FDR_OPTIONS=$fdropts XRAY_BASIC_OPTIONS=func_duration_threshold_us=0 XRAY_CTL_MODE=$mode"
    if [ "$tscmode" = real ] && [ "$real_tsc" = yes ]; then
        unshare -m sh -c "mount --bind '$work/cpu0' /sys/devices/system/cpu/cpu0 && $env_cmd $*" >/dev/null 2>&1
    else
        sh -c "$env_cmd $*" >/dev/null 2>&1
    fi
    set -- "$work"/log/*
    [ $# -eq 1 ] || { echo "make-traces: expected one log for $out, got $#" >&2; exit 1; }
    mv "$1" "pass/$out"
}
runmt real fdr "$small:buffer_size=16384:buffer_max=200" mtpool.fdr bin/mtpool 60 4
runmt emulated fdr "$small:buffer_size=16384:buffer_max=200" mtpool-emutsc.fdr bin/mtpool 60 4
runmt real fdr "buffer_size=4096:buffer_max=8" mtpool-wrapped.fdr bin/mtpool 400 4
runmt real basic "$small" mtpool.basic bin/mtpool 20 4
ls -l pass
