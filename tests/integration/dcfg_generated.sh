#!/usr/bin/env bash
# Random consistent DCFGs (tests/data/dcfg/gen_dcfg.py: walks through random
# structured CFGs with calls and nested loops, counts from the walks, every
# reader-hard feature) test reader, checker, writer and the
# routine/dominator/loop computation against each other:
#   1. check accepts the file: the generator's dominators (set-based data flow)
#      and loops (from the code structure) equal tracekit's CHK and natural loops;
#   2. the same file without ROUTINES dumps identically (tracekit computes
#      routines, exits, dominators and loops, and gets the generator's);
#   3. round trip: dump(read(write(read(x)))) == dump(read(x)), and check
#      accepts the written file; the callgrind export has the same
#      instruction total; the same for the two real passlab DCFGs.
set -u
cd "$(dirname "$0")/../.."
T=${TRACEKIT:-build/tracekit}
command -v python3 >/dev/null || { echo "python3 needed"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
roundtrip() {  # file label
    "$T" dump "$1" >"$tmp/d1" || { echo "$2: dump failed"; fail=1; return; }
    "$T" convert --to dcfg "$1" -o "$tmp/w.json" --force || { echo "$2: convert failed"; fail=1; return; }
    "$T" dump "$tmp/w.json" >"$tmp/d2" || { echo "$2: dump of written failed"; fail=1; return; }
    cmp -s "$tmp/d1" "$tmp/d2" || { echo "$2: round trip changes the model"; diff "$tmp/d1" "$tmp/d2" | head; fail=1; }
    "$T" check "$tmp/w.json" >/dev/null 2>"$tmp/err" || { echo "$2: check rejects the written file"; cat "$tmp/err"; fail=1; }
    if grep -q '\\u' "$tmp/w.json"; then echo "$2: the writer emitted a \\u escape"; fail=1; fi
    # callgrind export: the callgrind reader finds the same instruction total
    "$T" convert --to callgrind "$1" -o "$tmp/w.cg" --force || { echo "$2: convert --to callgrind failed"; fail=1; return; }
    "$T" check "$tmp/w.cg" >/dev/null 2>"$tmp/err" || { echo "$2: check rejects the callgrind output"; cat "$tmp/err"; fail=1; }
    want=$("$T" info "$1" | sed -n 's/.* \([0-9]*\) instructions*$/\1/p' | awk "{s+=\$1} END {print s}")
    got=$("$T" report "$tmp/w.cg" | sed -n 's/^program totals: //p' | tr -d ,)
    [ "$want" = "$got" ] || { echo "$2: callgrind total $got, DCFG instructions $want"; fail=1; }
}
n=${DCFG_GEN_CASES:-12}
for seed in $(seq 1 "$n"); do
    threads=$(( seed % 3 + 1 ))
    python3 tests/data/dcfg/gen_dcfg.py --seed "$seed" --threads $threads --hard >"$tmp/a.json"
    python3 tests/data/dcfg/gen_dcfg.py --seed "$seed" --threads $threads --hard --no-routines >"$tmp/b.json"
    "$T" check "$tmp/a.json" >/dev/null 2>"$tmp/err" || { echo "seed $seed: check failed"; cat "$tmp/err"; fail=1; }
    grep -q ": warning:" "$tmp/err" && { echo "seed $seed: check warns"; cat "$tmp/err"; fail=1; }
    "$T" dump "$tmp/a.json" >"$tmp/da"; "$T" dump "$tmp/b.json" >"$tmp/db"
    cmp -s "$tmp/da" "$tmp/db" || { echo "seed $seed: computed routines/loops differ from the generator's"; diff "$tmp/da" "$tmp/db" | head; fail=1; }
    roundtrip "$tmp/a.json" "seed $seed"
done
for which in whole region; do
    f=tests/data/corpus/dcfg-thirdparty/passlab-DCFG/$which.log_0.dcfg.json.bz2
    [ -f "$f" ] && roundtrip "$f" "passlab $which"
done
[ $fail = 0 ] && echo "ok: $n generated DCFGs and the real ones"
exit $fail
