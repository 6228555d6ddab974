#!/usr/bin/env bash
# DCFG benchmark: `tracekit report` on a generated DCFG of ~1 M blocks and
# ~1.1 M edges with routines, dominators and loops (~123 MB JSON), against
# Python's json.load of the same file (the usual way DCFGs are consumed), then
# the same from the .bz2 SDE writes. Goal: >= 50x less CPU time than json.load,
# peak RSS < 1/10 of it, >= 500 MB/s of JSON.
#
# Figures are CPU time (user + sys, the best of BENCH_RUNS runs for tracekit,
# of BENCH_OTHER_RUNS for Python) and peak RSS, from /usr/bin/time; wall time is printed
# too but is noise on a shared machine.  Prints per input:
#   bench NAME: tracekit CPU X s (sys S s, wall W s), python CPU Y s (wall V s), CPU ratio Y/X,
#               peak RSS tracekit A MB, python B MB, memory ratio B/A
#   bench NAME: S MB/s of JSON per CPU second
# The input is generated once into $BENCH_DATA (default build/bench-data).
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
DATA=${BENCH_DATA:-build/bench-data}
ROUTINES=${DCFG_BENCH_ROUTINES:-37000}
RUNS=${BENCH_RUNS:-3}
OTHER_RUNS=${BENCH_OTHER_RUNS:-2}
F=$DATA/dcfg-$ROUTINES.dcfg.json
mkdir -p "$DATA"
if [ ! -s "$F" ]; then
    echo "generating $F (once; about a minute)"
    python3 tests/data/dcfg/gen_dcfg.py --seed 7 --routines "$ROUTINES" --threads 2 --steps 200000 \
        --seq 12 --p-if 0.04 --p-loop 0.06 --p-call 0.02 >"$F.tmp" && mv "$F.tmp" "$F" || exit 1
fi
[ -s "$F.bz2" ] || bzip2 -k -9 "$F" || exit 1

# cpu_timed LABEL CMD -> C_CPU (user+sys s), C_WALL (s), C_RSS (MB); status of CMD
cpu_timed() {
    local label=$1 cmd=$2 log="$BENCH_OUT/$1.time" rc
    /usr/bin/time -f '%e %U %S %M' -o "$log" bash -c "$cmd" >"$BENCH_OUT/$label.out" 2>"$BENCH_OUT/$label.err"
    rc=$?
    read -r C_WALL C_USER C_SYS C_RSS_KB < <(tail -1 "$log")
    C_CPU=$(awk -v u="$C_USER" -v s="$C_SYS" 'BEGIN { printf "%.3f", u + s }')
    C_RSS=$(awk -v k="$C_RSS_KB" 'BEGIN { printf "%.1f", k / 1024 }')
    return $rc
}

# best_of LABEL CMD: the run with the least CPU time of $RUNS -> B_CPU, B_WALL, B_RSS
best_of() {
    local label=$1 cmd=$2 i
    B_CPU= B_WALL= B_RSS= B_SYS=
    for ((i = 0; i < RUNS; i++)); do
        cpu_timed "$label" "$cmd" || { echo "bench $label: tracekit failed:"; tail -5 "$BENCH_OUT/$label.err"; return 1; }
        if [ -z "$B_CPU" ] || awk -v a="$C_CPU" -v b="$B_CPU" 'BEGIN { exit !(a < b) }'; then
            B_CPU=$C_CPU B_WALL=$C_WALL B_RSS=$C_RSS B_SYS=$C_SYS
        fi
    done
}

# compare NAME BYTES "tracekit command" "python command": tracekit's best of
# $RUNS, Python's best of $OTHER_RUNS (its CPU time varies by a third between
# runs here: both tools at their best)
compare() {
    local name=$1 bytes=$2 ours=$3 theirs=$4 i p_cpu= p_wall= p_rss=
    best_of "$name.tracekit" "$ours" || return 1
    for ((i = 0; i < OTHER_RUNS; i++)); do
        cpu_timed "$name.python" "$theirs" || echo "bench $name: (python exited non-zero; its time still counts)"
        if [ -z "$p_cpu" ] || awk -v a="$C_CPU" -v b="$p_cpu" 'BEGIN { exit !(a < b) }'; then
            p_cpu=$C_CPU p_wall=$C_WALL p_rss=$C_RSS
        fi
    done
    C_CPU=$p_cpu C_WALL=$p_wall C_RSS=$p_rss
    awk -v n="$name" -v b="$bytes" -v c1="$B_CPU" -v w1="$B_WALL" -v r1="$B_RSS" -v s1="$B_SYS" \
        -v c2="$C_CPU" -v w2="$C_WALL" -v r2="$C_RSS" 'BEGIN {
        printf "bench %s: tracekit CPU %.3f s (sys %.2f s, wall %.2f s), python CPU %.3f s (wall %.2f s), CPU ratio %.1fx, ",
               n, c1, s1, w1, c2, w2, (c1 > 0 ? c2 / c1 : 0)
        printf "peak RSS tracekit %.1f MB, python %.1f MB, memory ratio %.1fx\n", r1, r2, (r1 > 0 ? r2 / r1 : 0)
        if (c1 > 0) printf "bench %s: %.0f MB/s of JSON per CPU second (goal: 50x CPU, 10x memory, 500 MB/s)\n", n, b / c1 / 1e6 }'
}

"$TRACEKIT" info "$F" | tail -1
bytes=$(stat -c %s "$F")
echo "input: $bytes bytes JSON, $(stat -c %s "$F.bz2") bytes bz2"
compare dcfg-report "$bytes" "'$TRACEKIT' report --top 20 '$F'" \
    "python3 -c 'import json; json.load(open(\"$F\"))'"
best_of dcfg-info "'$TRACEKIT' info '$F'" &&
    awk -v b="$bytes" -v c="$B_CPU" -v r="$B_RSS" 'BEGIN {
        printf "bench dcfg-info: CPU %.3f s, %.0f MB/s of JSON per CPU second, peak RSS %.1f MB\n", c, b / c / 1e6, r }'
compare dcfg-report-bz2 "$bytes" "'$TRACEKIT' report --top 20 '$F.bz2'" \
    "python3 -c 'import bz2, json; json.load(bz2.open(\"$F.bz2\"))'"
