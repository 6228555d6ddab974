#!/usr/bin/env bash
# Slices of generated WET traces against the generator's own naive slicer
# (tests/gen/wet_gen.c: rounds of "add every neighbour" until nothing changes).
set -eu
cd "$(dirname "$0")/../.."
T=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O1 -o "$tmp/wet_gen" tests/gen/wet_gen.c
n=0
for seed in 1 7 42; do
    for iters in 1 6 25; do
        "$tmp/wet_gen" --iterations $iters --seed $seed -o "$tmp/t.wet"
        "$T" check "$tmp/t.wet" 2>/dev/null
        # criteria: the final store, the loop's last add, a call inside f, a branch
        for crit in "1126:0" "1112:$((iters > 1 ? 1 : 0))" "1161:0" "1028:$iters" "1091:0"; do
            "$tmp/wet_gen" --iterations $iters --seed $seed --slice "$crit" >"$tmp/want" 2>/dev/null || continue
            for mode in "" "--deps data" "--deps control" "--forward" "--depth 2" "--forward --deps data --depth 3"; do
                gen_mode=$mode
                "$tmp/wet_gen" --iterations $iters --seed $seed --slice "$crit" $gen_mode >"$tmp/want"
                "$T" slice "$tmp/t.wet" --criterion "$crit" $mode >"$tmp/got"
                if ! cmp -s "$tmp/want" "$tmp/got"; then
                    echo "MISMATCH seed=$seed iterations=$iters criterion=$crit mode='$mode'"
                    diff "$tmp/want" "$tmp/got" | head -20
                    exit 1
                fi
                n=$((n + 1))
            done
        done
    done
done
# The limited-history form holding every dependence slices to the same
# instances, named by address.
"$tmp/wet_gen" --iterations 30 --seed 9 -o "$tmp/h.wet" --history "$tmp/h.hist" --history-limit 100000000
"$T" dump "$tmp/h.wet" | sed -n 's/^instr \([0-9]*\) addr \(0x[0-9a-f]*\) .*/\1 \2/p' >"$tmp/addr"
for crit in 1126:0 1112:12 1161:3 1028:30; do
    for dir in "" "--forward"; do
        id=${crit%:*} inst=${crit#*:}
        a=$(awk -v id="$id" '$1 == id { print $2 }' "$tmp/addr")
        "$T" slice "$tmp/h.wet" -c "$crit" $dir |
            awk 'NR == FNR { addr[$1] = $2; next } { print addr[$1], $2 }' "$tmp/addr" - | sort >"$tmp/want"
        "$T" slice "$tmp/h.hist" -c "$a#$inst" $dir | sort >"$tmp/got"
        cmp -s "$tmp/want" "$tmp/got" || { echo "history slice differs: $crit $dir"; diff "$tmp/want" "$tmp/got" | head; exit 1; }
        n=$((n + 1))
    done
done
echo "$n slices agree with the naive slicer and across the two forms"
