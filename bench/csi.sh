#!/usr/bin/env bash
# CSI metadata benchmarks (no other tool reads .debug_PT, so figures are
# absolute, against the targets of the issue):
#   check and report of 100 000 generated functions: each under 1 s
#   regenerating 10 M random path ids: at least 5 M paths/s
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
work=$BENCH_OUT
status=0
python3 bench/csi_gen.py 100000 1 > "$work/cfgs.txt"
"$TRACEKIT" convert --to csi --renumber --force -o "$work/big.PT" "$work/cfgs.txt" || exit 1
bytes=$(stat -c %s "$work/big.PT")
echo "bench csi: 100000 functions, $bytes bytes of metadata"
# user+system CPU seconds next to the wall clock: on a shared machine the
# wall clock also counts other processes
for cmd in check report; do
    /usr/bin/time -f '%e %U %S %M' -o "$work/$cmd.time" "$TRACEKIT" $cmd "$work/big.PT" \
        >/dev/null 2>"$work/$cmd.err" || { echo "bench csi-$cmd: failed"; tail -3 "$work/$cmd.err"; status=1; }
    read -r wall usr sys rss < "$work/$cmd.time"
    cpu=$(awk -v u="$usr" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    echo "bench csi-$cmd: $cpu s CPU ($wall s wall), peak RSS $((rss / 1024)) MB (target < 1 s)"
    bench_throughput "csi-$cmd" "$bytes" "$cpu"
    awk -v s="$cpu" 'BEGIN { exit !(s < 1.0) }' || echo "bench csi-$cmd: SLOWER than the 1 s target"
done
root=$(pwd)
lib="$(dirname "$TRACEKIT")/libtracekit.a"
libs=$(pkg-config --libs zlib liblzma libzstd libelf libdw 2>/dev/null || echo -lz -llzma -lzstd -ldw -lelf)
cc -O2 -std=c11 -D_GNU_SOURCE -I"$root/include" bench/csi_decode.c "$lib" $libs -lbz2 -lpthread -lm \
    -o "$work/csi_decode" || exit 1
"$work/csi_decode" "$work/big.PT" 10000000 | tee "$work/decode.txt" || status=1
awk '{ for (i = 1; i <= NF; i++) if ($i == "M" && $(i+1) == "paths/s") r = $(i-1) } END { exit !(r >= 5) }' "$work/decode.txt" \
    || echo "bench csi-decode: below the 5 M paths/s target"
[ -n "${BENCH_KEEP:-}" ] || rm -rf "$work"
exit $status
