#!/usr/bin/env bash
# DCFG-Trace: a generated trace (4 threads, many chunks, 100 M edges by
# default; BENCH_DT_EDGES=N edges per thread to change it) is encoded through
# libtracekit (speed printed by the generator), then decoded by tracekit on
# one and on two threads. Sizes: tracekit's encoding vs --compat=intel (what
# Intel's reader can read) vs that compressed with bzip2 -9.
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
per_thread=${BENCH_DT_EDGES:-25000000}
threads=4
dir=$BENCH_OUT
libs="$(pkg-config --libs zlib liblzma libzstd libelf libdw 2>/dev/null || echo -lz -llzma -lzstd -ldw -lelf) -lbz2 -lpthread -lm"
lib=$(dirname "$TRACEKIT")/libtracekit.a
cc -std=c11 -O2 -D_GNU_SOURCE -DWITH_TRACEKIT -Iinclude -o "$dir/gen" tests/gen/dcfg_trace_gen.c "$lib" $libs || exit 1
common="--seed 7 --routines 200 --threads $threads --edges-per-thread $per_thread --chunk-instrs 2000000"
echo "bench dcfg-trace: generating and encoding $((per_thread * threads)) edges over $threads threads"
"$dir/gen" $common --dcfg "$dir/b.dcfg.json" --encode "$dir/b.trace.json" --level 9 | sed 's/^/bench dcfg-trace encode level 9: /'
"$dir/gen" $common --encode "$dir/b.intel.trace.json" --compat --level 1 | sed 's/^/bench dcfg-trace encode --compat=intel: /'
total=$((per_thread * threads))
for run in 1:b 2:b 1:b.intel 2:b.intel; do
    j=${run%%:*} name=${run#*:}
    /usr/bin/time -f '%e %U %S %M' -o "$dir/time.$j" "$TRACEKIT" decode --what count -j $j "$dir/$name.trace.json" >"$dir/count.$j" ||
        { echo "bench dcfg-trace: decode failed"; exit 1; }
    got=$(cat "$dir/count.$j")
    [ "$got" = "$total" ] || { echo "bench dcfg-trace: decoded $got edges, expected $total"; exit 1; }
    read -r wall user sys rss <"$dir/time.$j"
    what="level 9"
    [ "$name" = b.intel ] && what="--compat=intel (one edge per row)"
    awk -v j=$j -v what="$what" -v w="$wall" -v u="$user" -v s="$sys" -v n="$total" -v r="$rss" 'BEGIN {
        cpu = u + s
        printf "bench dcfg-trace decode %s -j %d: wall %.3f s (%.1f M edges/s), CPU %.3f s (%.1f M edges/s per core), peak RSS %.1f MB\n",
               what, j, w, (w > 0 ? n / w / 1e6 : 0), cpu, (cpu > 0 ? n / cpu / 1e6 : 0), r / 1024 }'
done
echo "bench dcfg-trace: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (wall times are only meaningful on an idle machine)"
bzip2 -9 -k -c "$dir/b.intel.trace.json" >"$dir/b.intel.trace.json.bz2"
ours=$(wc -c <"$dir/b.trace.json"); intel=$(wc -c <"$dir/b.intel.trace.json"); bz=$(wc -c <"$dir/b.intel.trace.json.bz2")
awk -v o="$ours" -v i="$intel" -v b="$bz" -v n="$total" 'BEGIN {
    printf "bench dcfg-trace size: tracekit %d bytes (%.3f bits/edge), --compat=intel %d bytes (%.2fx), --compat=intel | bzip2 -9 %d bytes (%.2fx)\n",
           o, o * 8 / n, i, i / o, b, b / o }'
"$TRACEKIT" check --dcfg "$dir/b.dcfg.json" "$dir/b.trace.json" 2>&1 | tail -1 | sed 's/^/bench dcfg-trace check: /'
