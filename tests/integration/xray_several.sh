#!/bin/bash
# Several XRay traces in one report (issue 28): the same bytes with any --jobs, and what one
# trace holding them all would give (a trace given twice counts every call twice); convert
# to folded, callgrind and dot of several, the same bytes with any --jobs.
set -euo pipefail
TK=${TK:-build/tracekit}
D=tests/data/xray/pass
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
traces=($D/mtpool.fdr $D/calltree.fdr $D/mtpool.basic $D/calltree.basic $D/mtpool-wrapped.fdr)
fail=0
for fmt in text json csv; do
    for pt in "" --per-thread; do
        "$TK" report "${traces[@]}" --format $fmt $pt -j 1 >"$T/j1" 2>"$T/e1"
        for j in 2 3 5; do
            "$TK" report "${traces[@]}" --format $fmt $pt -j $j >"$T/jn" 2>"$T/en"
            if ! cmp -s "$T/j1" "$T/jn" || ! cmp -s "$T/e1" "$T/en"; then
                echo "FAIL: report --format $fmt $pt -j $j differs from -j 1"
                fail=1
            fi
        done
    done
done
# convert of ten traces (those five, twice) through their partials on threads: the bytes of
# -j 1, which reads them as one stream
for to in folded callgrind dot; do
    for pt in "" --per-thread; do
        [ $to = callgrind ] && [ -n "$pt" ] && continue # a file per thread: tests/cli/xray
        "$TK" convert --to $to $pt "${traces[@]}" "${traces[@]}" -j 1 >"$T/j1" 2>"$T/e1"
        for j in 3 5 16; do
            "$TK" convert --to $to $pt "${traces[@]}" "${traces[@]}" -j $j >"$T/jn" 2>"$T/en"
            if ! cmp -s "$T/j1" "$T/jn" || ! cmp -s "$T/e1" "$T/en"; then
                echo "FAIL: convert --to $to $pt -j $j differs from -j 1"
                fail=1
            fi
        done
    done
done
# a trace twice: every count and sum doubles, the minima, maxima and percentiles stay
"$TK" report $D/mtpool.fdr --format csv --sort funcid >"$T/one"
"$TK" report $D/mtpool.fdr $D/mtpool.fdr --format csv --sort funcid >"$T/two"
if ! awk -F, 'NR == FNR { if (FNR > 1) { c[$1] = $2; s[$1] = $8; m[$1] = $3 $4 $5 $6 $7 } next }
     FNR > 1 && ($2 != 2 * c[$1] || $3 $4 $5 $6 $7 != m[$1] ||
                 (($8 - 2 * s[$1]) ^ 2) > (1e-8 * $8) ^ 2) { bad = 1; print "row " $1 }
     END { exit bad }' "$T/one" "$T/two"; then
    echo "FAIL: a trace given twice does not count its calls twice"
    fail=1
fi
[ $fail = 0 ] && echo "xray_several: ok"
exit $fail
