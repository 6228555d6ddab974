#!/usr/bin/env bash
# Folded stacks benchmark: tracekit's `report` of a folded file (each frame name's self and
# total) against what users otherwise run on the same file. FlameGraph (flamegraph.pl,
# difffolded.pl) is not a Debian package, so the other side is the plain reduction people
# write: awk summing self and total per frame name (each name once per stack), then sort by
# total. Two inputs, generated once by bench/folded_gen.py and cached in FOLDED_BENCH_DIR
# (default /tmp/tracekit-bench-folded): FOLDED_BENCH_LINES stacks (default 200000, ~260 MB:
# 20,000 C++-like names, depth 1-48), and the same stacks with two counts a line (the
# differential form difffolded.pl and `tracekit diff --format folded` write), whose report has
# both profiles' self and total. Each run's output is checked equal to the other's first.
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
command -v python3 >/dev/null || { echo "bench folded: python3 not installed, skipped"; exit 0; }
dir=${FOLDED_BENCH_DIR:-/tmp/tracekit-bench-folded}
lines=${FOLDED_BENCH_LINES:-200000}
mkdir -p "$dir"
one=$dir/stacks-$lines.folded two=$dir/stacks-$lines.diff.folded
if [ ! -s "$one" ] || [ ! -s "$two" ]; then
    echo "bench folded: generating $lines stacks (about 30 s)"
    python3 bench/folded_gen.py "$lines" >"$one.tmp" && mv "$one.tmp" "$one" &&
        python3 bench/folded_gen.py "$lines" --diff >"$two.tmp" && mv "$two.tmp" "$two" ||
        { echo "bench folded: generating failed"; exit 1; }
fi
echo "bench folded: $one, $(($(stat -c %s "$one") / 1000000)) MB; $two, $(($(stat -c %s "$two") / 1000000)) MB"
AWK=$(command -v mawk || command -v awk)
# the reduction: self[leaf] += count, total[name] += count once per stack; rows by total
reduce1='{ c = $NF; s = $0; sub(/[ \t][^ \t]*$/, "", s); n = split(s, fr, ";"); self[fr[n]] += c
    split("", seen); for (i = 1; i <= n; i++) if (!(fr[i] in seen)) { seen[fr[i]] = 1; total[fr[i]] += c } }
    END { for (k in total) printf "%s,%.0f,%.0f\n", k, self[k], total[k] }'
reduce2='{ a = $(NF - 1); b = $NF; s = $0; sub(/[ \t][^ \t]*[ \t][^ \t]*$/, "", s); n = split(s, fr, ";")
    selfa[fr[n]] += a; selfb[fr[n]] += b
    split("", seen); for (i = 1; i <= n; i++) if (!(fr[i] in seen)) { seen[fr[i]] = 1; ta[fr[i]] += a; tb[fr[i]] += b } }
    END { for (k in tb) printf "%s,%.0f,%.0f,%.0f,%.0f\n", k, selfb[k], tb[k], selfa[k], ta[k] }'
status=0
for kind in one two; do
    f=${!kind} prog=reduce1 name=folded-report
    [ $kind = two ] && prog=reduce2 name=folded-diff-report
    "$TRACEKIT" report --format csv "$f" | tail -n +2 | sort >"$BENCH_OUT/$name.tk"
    $AWK "${!prog}" "$f" | sort >"$BENCH_OUT/$name.awk"
    cmp -s "$BENCH_OUT/$name.tk" "$BENCH_OUT/$name.awk" ||
        { echo "bench $name: tracekit's rows differ from the awk reduction's"; status=1; }
    bench_compare "$name" "'$TRACEKIT' report --format csv '$f'" \
        "$AWK '${!prog}' '$f' | sort -t, -k3,3nr" || status=1
    run_timed "$name.again" "'$TRACEKIT' report --format csv '$f'" &&
        bench_throughput "$name-cpu" "$(stat -c %s "$f")" "$T_CPU"
done
[ -n "${BENCH_KEEP:-}" ] || rm -rf "$BENCH_OUT"
exit $status
