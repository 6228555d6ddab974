#!/usr/bin/env bash
# `tracekit record` benchmark (a benchmark, not a timed test): compute-bound
# programs run natively, under `valgrind --tool=none`, under callgrind, under
# `tracekit record` and `tracekit record --trace`. Goals (docs/record.md):
# record no slower than callgrind, record --trace at most 1.5x callgrind, memory
# bounded by the program's code, not by its run.
#
# Workloads (each skipped when its program is missing):
#   xz      xz -9 of BENCH_RECORD_MB (default 2) MB of generated text
#   python  CPython running a small script (dicts, strings, loops)
#   sqlite  sqlite3 running a query over a generated table
# Per workload and way of running: wall and CPU time (user + sys of the whole
# process tree, /usr/bin/time) and peak RSS, the best of BENCH_RUNS (default 1)
# runs; the ratios to callgrind; for --trace, the trace's bytes per executed
# edge. Prints lines
#   bench record-W MODE: wall X s, CPU Y s, peak RSS Z MB
#   bench record-W: record/callgrind wall A (CPU B), record --trace/callgrind wall C (CPU D)
#
# BENCH_RECORD_DCFG=0 leaves the DCFG modes out. The WET modes (BENCH_RECORD_WET=0
# leaves them out) trace every instruction,
# so they run smaller workloads of 14-30 M instructions: xz -9 of 10 KB, CPython
# on a shorter script, sqlite3 on 500 rows; native, --tool=none, `record
# --wet-history 100000` and `record --wet`, and prints
#   bench record-wet-W: history/native A, history/none B, wet/native C, wet/none D (wall)
#   bench record-wet-W: N instances, history X bytes, wet Y bytes per executed instruction
# and, with BENCH_RECORD_WET_BIG=1, `record --wet` of a generated program of about 100 M
# instructions (the issue's goal: within 4 GB), its peak RSS and spill files.
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
RUNS=${BENCH_RUNS:-1}
MB=${BENCH_RECORD_MB:-2}
command -v valgrind >/dev/null || { echo "bench record: valgrind not installed"; exit 0; }
[ -x "$(dirname "$TRACEKIT")/recorder/tkrecord-amd64-linux" ] ||
    { echo "bench record: tkrecord not built"; exit 0; }
W=$BENCH_OUT/record
mkdir -p "$W"

# inputs
python3 - "$W/text" "$MB" <<'PY'
import random, sys
r = random.Random(7)
words = ["%s%d" % (w, i) for i, w in enumerate("alpha beta gamma delta epsilon zeta eta theta".split() * 40)]
with open(sys.argv[1], "w") as f:
    n = 0
    while n < float(sys.argv[2]) * 1e6:
        line = " ".join(r.choice(words) for _ in range(12)) + "\n"
        f.write(line)
        n += len(line)
PY
cat >"$W/script.py" <<'PY'
d = {}
for i in range(60000):
    k = "k%d" % (i % 5000)
    d[k] = d.get(k, 0) + i * i % 97
s = sorted(d.items(), key=lambda kv: (kv[1], kv[0]))
print(len(s), sum(v for _, v in s), "".join(k[-1] for k, _ in s[:50]))
PY
python3 - "$W/db.sql" <<'PY'
import random, sys
r = random.Random(3)
with open(sys.argv[1], "w") as f:
    f.write("CREATE TABLE t(a INTEGER, b TEXT, c REAL);\nBEGIN;\n")
    for i in range(20000):
        f.write("INSERT INTO t VALUES(%d,'s%d',%f);\n" % (r.randrange(1000), r.randrange(500), r.random()))
    f.write("COMMIT;\nSELECT b, count(*), sum(c), avg(a) FROM t GROUP BY b ORDER BY 3 DESC LIMIT 5;\n")
PY

py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
workloads="xz|$(command -v xz) -9 -c -T1 $W/text
python|$py -S $W/script.py
sqlite|$(command -v sqlite3) :memory: -init $W/db.sql .quit"

# best LABEL CMD -> B_WALL B_CPU B_RSS (the run with the least wall time)
best() {
    local label=$1 cmd=$2 i
    B_WALL= B_CPU= B_RSS=
    for ((i = 0; i < RUNS; i++)); do
        run_timed "$label" "$cmd" || { echo "bench $label: failed:"; tail -3 "$BENCH_OUT/$label.err"; return 1; }
        if [ -z "$B_WALL" ] || awk -v a="$T_SEC" -v b="$B_WALL" 'BEGIN { exit !(a < b) }'; then
            B_WALL=$T_SEC B_CPU=$T_CPU B_RSS=$T_RSS_MB
        fi
    done
    printf 'bench record-%s: wall %.2f s, CPU %.2f s, peak RSS %.1f MB\n' "$label" "$B_WALL" "$B_CPU" "$B_RSS"
}

[ "${BENCH_RECORD_DCFG:-1}" = 0 ] && workloads=
while IFS='|' read -r name cmd; do
    [ -n "$name" ] || continue
    prog=${cmd%% *}
    [ -n "$prog" ] && [ -x "$prog" ] || { echo "bench record-$name: skipped (no program)"; continue; }
    best "$name native" "$cmd" || continue
    best "$name none" "valgrind -q --tool=none $cmd" || continue
    best "$name callgrind" "valgrind -q --tool=callgrind --callgrind-out-file=$W/$name.cg $cmd" || continue
    cw=$B_WALL cc=$B_CPU
    best "$name record" "'$TRACEKIT' record -q --force -o $W/$name -- $cmd" || continue
    rw=$B_WALL rc=$B_CPU
    best "$name record --trace" "'$TRACEKIT' record -q --force --trace -o $W/$name -- $cmd" || continue
    tw=$B_WALL tc=$B_CPU
    edges=$("$TRACEKIT" info -v "$W/$name.trace.json" | awk '/edges \(EDGE_COUNT\)/ { gsub(",", ""); for (i = 1; i <= NF; i++) if ($(i + 1) ~ /^edges?$/) n += $i } END { print n + 0 }')
    bytes=$(stat -c %s "$W/$name.trace.json")
    awk -v n="$name" -v cw="$cw" -v cc="$cc" -v rw="$rw" -v rc="$rc" -v tw="$tw" -v tc="$tc" \
        -v e="$edges" -v b="$bytes" 'BEGIN {
        printf "bench record-%s: record/callgrind wall %.2fx (CPU %.2fx), record --trace/callgrind wall %.2fx (CPU %.2fx)\n",
               n, rw / cw, rc / cc, tw / cw, tc / cc
        if (e > 0) printf "bench record-%s: trace %d bytes for %d edges, %.3f bytes per edge\n", n, b, e, b / e }'
done <<<"$workloads"
# ---- the WET modes ----
[ "${BENCH_RECORD_WET:-1}" = 0 ] && { [ -n "${BENCH_KEEP:-}" ] || rm -rf "$W"; exit 0; }
head -c 10000 "$W/text" >"$W/wet-text"
cat >"$W/wet-script.py" <<'PY'
d = {}
for i in range(3000):
    k = "k%d" % (i % 500)
    d[k] = d.get(k, 0) + i * i % 97
print(len(d), sum(d.values()))
PY
head -n 502 "$W/db.sql" >"$W/wet-db.sql"
printf 'COMMIT;\nSELECT b, count(*), sum(c), avg(a) FROM t GROUP BY b ORDER BY 3 DESC LIMIT 5;\n' >>"$W/wet-db.sql"
wet_workloads="xz|$(command -v xz) -9 -c -T1 $W/wet-text
python|$py -S $W/wet-script.py
sqlite|$(command -v sqlite3) :memory: -init $W/wet-db.sql .quit"
while IFS='|' read -r name cmd; do
    prog=${cmd%% *}
    [ -n "$prog" ] && [ -x "$prog" ] || { echo "bench record-wet-$name: skipped (no program)"; continue; }
    best "wet-$name native x20" "for i in \$(seq 20); do $cmd >/dev/null; done" || continue
    nw=$(awk -v w="$B_WALL" 'BEGIN { printf "%.4f", w / 20 }')
    best "wet-$name none" "valgrind -q --tool=none $cmd" || continue
    vw=$B_WALL
    best "wet-$name history" "'$TRACEKIT' record --force --wet-history 100000 -o $W/wet-$name -- $cmd" || continue
    hw=$B_WALL
    best "wet-$name wet" "'$TRACEKIT' record --force --wet -o $W/wet-$name -- $cmd" || continue
    ww=$B_WALL
    inst=$(sed -n 's/.*wet: [0-9]* instructions, \([0-9]*\) instances.*/\1/p' "$BENCH_OUT/wet-$name wet.err")
    awk -v n="$name" -v nw="$nw" -v vw="$vw" -v hw="$hw" -v ww="$ww" -v i="${inst:-0}" \
        -v hb="$(stat -c %s "$W/wet-$name.wet-history")" -v wb="$(stat -c %s "$W/wet-$name.wet")" 'BEGIN {
        printf "bench record-wet-%s: history/native %.0fx, history/none %.1fx, wet/native %.0fx, wet/none %.1fx (wall)\n",
               n, hw / nw, hw / vw, ww / nw, ww / vw
        if (i > 0) printf "bench record-wet-%s: %d instances, history %.3f bytes, wet %.1f bytes per executed instruction\n",
               n, i, hb / i, wb / i }'
done <<<"$wet_workloads"

# the comprehensive form's goal, 100 M executed instructions within 4 GB (BENCH_RECORD_WET_BIG=1:
# it writes a trace of about 9 GB): a generated program of loops over 4 MB, run once
if [ "${BENCH_RECORD_WET_BIG:-0}" = 1 ] && command -v cc >/dev/null; then
    cat >"$W/big.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    long n = 1000000;
    unsigned *a = malloc(n * sizeof *a), x = 1;
    for (long i = 0; i < n; i++) { x = x * 1103515245u + 12345u; a[i] = x >> 8; }
    unsigned long s = 0;
    for (int r = 0; r < 11; r++)
        for (long i = 1; i < n; i++) { a[i] ^= a[i - 1] >> 3; s += a[i] & 0xff; }
    printf("%lu\n", s);
    return 0;
}
C
    cc -O1 -o "$W/big" "$W/big.c" &&
        best "wet-big wet" "'$TRACEKIT' record --force --wet -o $W/wet-big -- $W/big" && {
        inst=$(sed -n 's/.*wet: [0-9]* instructions, \([0-9]*\) instances.*/\1/p' "$BENCH_OUT/wet-big wet.err")
        spills=$(sed -n 's/.*(\([0-9]*\) spill files\{0,1\}).*/\1/p' "$BENCH_OUT/wet-big wet.err")
        awk -v i="${inst:-0}" -v s="${spills:-0}" -v r="$B_RSS" -v b="$(stat -c %s "$W/wet-big.wet")" 'BEGIN {
            printf "bench record-wet-big: %d instances, peak RSS %.0f MB (goal: 100 M within 4096 MB), %d spill files, %.1f GB of trace\n",
                   i, r, s, b / 1e9 }'
        rm -f "$W/wet-big.wet"
    }
fi
[ -n "${BENCH_KEEP:-}" ] || rm -rf "$W"
