# Shared helpers of the benchmarks (sourced by bench/*.sh).
#   bench_compare NAME "tracekit command" "other tool's command"
# runs both on the same input in one run, each under /usr/bin/time, and prints
#   bench NAME: tracekit X s, other Y s, ratio Y/X, peak RSS tracekit A MB, other B MB
#   bench NAME-cpu: tracekit X s CPU, other Y s CPU, ratio Y/X
# Wall time includes waiting for a busy machine; CPU time (user + sys) does not.
# Outputs of the commands go to /dev/null; set BENCH_KEEP=1 to keep them in $BENCH_OUT.
set -uo pipefail
BENCH_OUT=${BENCH_OUT:-$(mktemp -d)}
TRACEKIT=${TRACEKIT:-build/tracekit}

# run_timed LABEL CMD -> sets T_SEC (wall), T_CPU (user + sys) and T_RSS_MB
run_timed() {
    local label=$1 cmd=$2 log="$BENCH_OUT/$1.time" user sys
    /usr/bin/time -f '%e %U %S %M' -o "$log" bash -c "$cmd" >"$BENCH_OUT/$label.out" 2>"$BENCH_OUT/$label.err"
    local rc=$?
    read -r T_SEC user sys T_RSS_KB < <(tail -1 "$log")
    T_CPU=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')
    T_RSS_MB=$(awk -v k="$T_RSS_KB" 'BEGIN { printf "%.1f", k / 1024 }')
    return $rc
}

bench_compare() {
    local name=$1 ours=$2 theirs=$3 s1 c1 r1 s2 c2 r2
    run_timed "$name.tracekit" "$ours" || { echo "bench $name: tracekit failed:"; tail -5 "$BENCH_OUT/$name.tracekit.err"; return 1; }
    s1=$T_SEC c1=$T_CPU r1=$T_RSS_MB
    run_timed "$name.other" "$theirs" || echo "bench $name: (the other tool exited non-zero; its time still counts)"
    s2=$T_SEC c2=$T_CPU r2=$T_RSS_MB
    awk -v n="$name" -v s1="$s1" -v s2="$s2" -v c1="$c1" -v c2="$c2" -v r1="$r1" -v r2="$r2" 'BEGIN {
        ratio = (s1 > 0) ? s2 / s1 : 0; cpu = (c1 > 0) ? c2 / c1 : 0; mem = (r1 > 0) ? r2 / r1 : 0;
        printf "bench %s: tracekit %.3f s, other %.3f s, ratio %.1fx, peak RSS tracekit %.1f MB, other %.1f MB (%.1fx)\n",
               n, s1, s2, ratio, r1, r2, mem
        printf "bench %s-cpu: tracekit %.3f s CPU, other %.3f s CPU, ratio %.1fx\n", n, c1, c2, cpu }'
}

# throughput NAME BYTES SECONDS: MB/s line
bench_throughput() {
    awk -v n="$1" -v b="$2" -v s="$3" 'BEGIN { if (s > 0) printf "bench %s: %.0f MB/s of input\n", n, b / s / 1e6 }'
}
