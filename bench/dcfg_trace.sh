#!/usr/bin/env bash
# DCFG-Trace: a generated trace (4 threads, many chunks, 100 M edges by
# default; BENCH_DT_EDGES=N edges per thread to change it) is encoded through
# libtracekit (speed printed by the generator), then decoded by tracekit on
# one and on two threads (--what count: decoding only; --what edges: decoding
# and formatting, output to /dev/null), best wall time of 3 runs each, and the
# speed-up -j 2 / -j 1 (meaningful on an idle machine only; with perf, the
# share of CPU time of each thread is printed too), and convert --to bbv, callgrind, folded -j 1 / -j 2. Sizes: tracekit's encoding vs --compat=intel (what
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
# best (smallest wall) of 3 runs: wall, user, sys, peak RSS; output to $1
best_of_3() {
    local best="" w u s r to=$1
    shift
    for _ in 1 2 3; do
        /usr/bin/time -f '%e %U %S %M' -o "$dir/time.run" "$@" >"$to" || return 1
        read -r w u s r <"$dir/time.run"
        if [ -z "$best" ] || awk -v a="$w" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best="$w $u $s $r"; fi
    done
    echo "$best"
}
for name in b b.intel; do
    what="level 9"
    [ "$name" = b.intel ] && what="--compat=intel (one edge per row)"
    for mode in count edges; do
        wall=()
        for j in 1 2; do
            to="$dir/out.run"
            [ $mode = edges ] && to=/dev/null  # 1.2 GB of text for 100 M edges
            res=$(best_of_3 "$to" "$TRACEKIT" decode --what $mode -j $j "$dir/$name.trace.json") ||
                { echo "bench dcfg-trace: decode failed"; exit 1; }
            if [ $mode = count ]; then
                got=$(cat "$dir/out.run")
                [ "$got" = "$total" ] || { echo "bench dcfg-trace: decoded $got edges, expected $total"; exit 1; }
            fi
            read -r w u s r <<<"$res"
            wall[$j]=$w
            awk -v j=$j -v what="$what" -v mode=$mode -v w="$w" -v u="$u" -v s="$s" -v n="$total" -v r="$r" 'BEGIN {
                cpu = u + s
                printf "bench dcfg-trace decode %s --what %s -j %d: wall %.3f s (%.1f M edges/s), CPU %.3f s (%.1f M edges/s per core), peak RSS %.1f MB\n",
                       what, mode, j, w, (w > 0 ? n / w / 1e6 : 0), cpu, (cpu > 0 ? n / cpu / 1e6 : 0), r / 1024 }'
        done
        awk -v what="$what" -v mode=$mode -v a="${wall[1]}" -v b="${wall[2]}" 'BEGIN {
            printf "bench dcfg-trace decode %s --what %s: speed-up -j 2 / -j 1 = %.2fx (wall %.3f s / %.3f s, best of 3)\n", what, mode, (b > 0 ? a / b : 0), a, b }'
        # how the CPU time splits over the threads (perf, when available)
        if command -v perf >/dev/null 2>&1 &&
            perf record -q -e task-clock -o "$dir/perf.data" "$TRACEKIT" decode --what $mode -j 2 "$dir/$name.trace.json" >/dev/null 2>&1; then
            split=$(perf report -i "$dir/perf.data" --sort pid --stdio 2>/dev/null | awk '/%/ { printf "%s%s", sep, $1; sep = " / " }')
            echo "bench dcfg-trace decode $what --what $mode -j 2: CPU share per thread $split"
        fi
    done
done
# convert --to bbv (SimPoint slices of 1 M instructions): -j 1 adds each block as its edge is
# looked up; -j 2 looks the edges up on the decoding threads and adds the blocks in order
# (docs/mpi.md, "DCFG-Trace basic-block vectors"); --to callgrind and --to folded the same way,
# their call stacks made in order (docs/formats/dcfg-trace.md, "Conversions"); the same bytes
for to in bbv callgrind folded; do
    extra=()
    [ $to = bbv ] && extra=(--interval 1000000)
    conv_wall=()
    for j in 1 2; do
        res=$(best_of_3 "$dir/$to.$j" "$TRACEKIT" convert --to $to --dcfg "$dir/b.dcfg.json" \
            "${extra[@]}" -j $j "$dir/b.trace.json") || { echo "bench dcfg-trace: $to failed"; exit 1; }
        read -r w u s r <<<"$res"
        conv_wall[$j]=$w
        awk -v to=$to -v j=$j -v w="$w" -v u="$u" -v s="$s" -v n="$total" -v r="$r" 'BEGIN {
            printf "bench dcfg-trace convert --to %s -j %d: wall %.3f s (%.1f M edges/s), CPU %.3f s, peak RSS %.1f MB\n",
                   to, j, w, (w > 0 ? n / w / 1e6 : 0), u + s, r / 1024 }'
    done
    cmp -s "$dir/$to.1" "$dir/$to.2" || { echo "bench dcfg-trace: $to -j 2 differs from -j 1"; exit 1; }
    awk -v to=$to -v a="${conv_wall[1]}" -v b="${conv_wall[2]}" 'BEGIN {
        printf "bench dcfg-trace convert --to %s: speed-up -j 2 / -j 1 = %.2fx (wall %.3f s / %.3f s, best of 3)\n", to, (b > 0 ? a / b : 0), a, b }'
done
echo "bench dcfg-trace: load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (wall times are only meaningful on an idle machine)"
bzip2 -9 -k -c "$dir/b.intel.trace.json" >"$dir/b.intel.trace.json.bz2"
ours=$(wc -c <"$dir/b.trace.json"); intel=$(wc -c <"$dir/b.intel.trace.json"); bz=$(wc -c <"$dir/b.intel.trace.json.bz2")
awk -v o="$ours" -v i="$intel" -v b="$bz" -v n="$total" 'BEGIN {
    printf "bench dcfg-trace size: tracekit %d bytes (%.3f bits/edge), --compat=intel %d bytes (%.2fx), --compat=intel | bzip2 -9 %d bytes (%.2fx)\n",
           o, o * 8 / n, i, i / o, b, b / o }'
"$TRACEKIT" check --dcfg "$dir/b.dcfg.json" "$dir/b.trace.json" 2>&1 | tail -1 | sed 's/^/bench dcfg-trace check: /'
