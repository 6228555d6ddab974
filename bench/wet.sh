#!/usr/bin/env bash
# WET benchmark: a generated comprehensive trace with >= 50 M dependence entries
# (tests/gen/wet_gen.c); load speed (target >= 300 MB/s), peak memory (target
# <= 1.5x the file size) and a backward slice over the whole trace (target < 2 s).
# On a smaller trace, tracekit slice against an awk BFS slicer (what one writes
# without tracekit; no public WET tool exists to compare with).
#   WET_BENCH_ITERATIONS (default 1650000, about 51 M entries, 1.3 GB)
#   BENCH_DATA (default build/bench-data): where the generated traces are kept
cd "$(dirname "$0")/.."
. bench/lib.sh
data=${BENCH_DATA:-build/bench-data}
mkdir -p "$data"
cc -std=c11 -O2 -o "$data/wet_gen" tests/gen/wet_gen.c || exit 1
iters=${WET_BENCH_ITERATIONS:-1650000}
big="$data/wet-$iters.wet"
if [ ! -s "$big" ]; then
    echo "generating $big ..."
    "$data/wet_gen" --iterations "$iters" -o "$big" || exit 1
fi
size=$(stat -c %s "$big")

run_timed wet.load "$TRACEKIT info $big" || { cat "$BENCH_OUT/wet.load.err"; exit 1; }
entries=$(sed -n 's/^dependences: \([0-9]*\) .*/\1/p' "$BENCH_OUT/wet.load.out")
echo "bench wet.load: $(awk -v b=$size 'BEGIN{printf "%.0f", b/1e6}') MB, $entries dependence entries, $T_SEC s, peak RSS $T_RSS_MB MB"
bench_throughput wet.load "$size" "$T_SEC"
awk -v r="$T_RSS_MB" -v b="$size" 'BEGIN { printf "bench wet.memory: peak RSS / file size = %.2f (target <= 1.5)\n", r * 1048576 / b }'

"$TRACEKIT" slice "$big" --criterion 1126:0 --timing >/dev/null 2>"$BENCH_OUT/wet.slice.err" ||
    { cat "$BENCH_OUT/wet.slice.err"; exit 1; }
sed -n 's/^tracekit slice: /bench wet.slice: /p' "$BENCH_OUT/wet.slice.err"
cpu=$(sed -n 's/^tracekit slice: load: [0-9.]* s (cpu \([0-9.]*\) s)/\1/p' "$BENCH_OUT/wet.slice.err")
bench_throughput wet.load-cpu "$size" "$cpu"

small="$data/wet-100000.wet"
[ -s "$small" ] || "$data/wet_gen" --iterations 100000 -o "$small"
bench_compare wet.slice-vs-awk "$TRACEKIT slice $small --criterion 1126:0 | wc -l" \
    "awk -v CRIT='1126 0' -f bench/wet_slice.awk $small"
