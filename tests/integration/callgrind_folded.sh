#!/usr/bin/env bash
# Folded stacks of callgrind profiles: on every readable profile (ours and the
# third-party corpus), for every event, the counts add up to the program total
# that `report` prints (up to rounding), and no line is malformed.
set -u
cd "$(dirname "$0")/../.."
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
. tests/integration/lib/callgrind_profiles.sh
files=("${profiles[@]}")
for f in "${files[@]}"; do
    [ -s "$f" ] || continue
    "$TRACEKIT" report --from callgrind --format=json "$f" >"$tmp/r" 2>/dev/null || continue
    totals=$(sed -n 's/.*"totals":\[\([0-9,]*\)\].*/\1/p' "$tmp/r" | head -1 | tr ',' ' ')
    events=$(sed -n 's/.*"events":\[\([^]]*\)\].*/\1/p' "$tmp/r" | head -1 | tr -d '"' | tr ',' ' ')
    set -- $totals
    for ev in $events; do
        want=${1:-0}; shift
        if ! "$TRACEKIT" convert --from callgrind --to folded --event "$ev" "$f" >"$tmp/f" 2>"$tmp/e"; then
            echo "FAIL: $f --event $ev: $(cat "$tmp/e")"; fail=1; continue
        fi
        n=$((n + 1))
        if ! awk -v want="$want" -v f="$f" -v ev="$ev" '
            !/^[^ ;].* [0-9]+$/ || / 0$/ { print "FAIL: " f " " ev ": bad line: " $0; bad = 1 }
            { sum += $NF }
            END {
                d = sum - want; if (d < 0) d = -d
                if (d > 1) { printf "FAIL: %s %s: folded counts add up to %.0f, the total is %.0f\n", f, ev, sum, want; bad = 1 }
                exit bad
            }' "$tmp/f"; then
            fail=1
        fi
    done
    # each part apart: the same total, every stack under its thread or part
    set -- $totals
    "$TRACEKIT" convert --from callgrind --to folded --per-thread "$f" >"$tmp/f" 2>"$tmp/e" ||
        { echo "FAIL: $f --per-thread: $(cat "$tmp/e")"; fail=1; continue; }
    if ! awk -v want="${1:-0}" -v f="$f" '
        !/^(thread|part) [0-9]+;/ { print "FAIL: " f " --per-thread: a stack without its thread: " $0; bad = 1 }
        { sum += $NF }
        END {
            d = sum - want; if (d < 0) d = -d
            if (d > 3) { printf "FAIL: %s --per-thread: counts add up to %.0f, the total is %.0f\n", f, sum, want; bad = 1 }
            exit bad
        }' "$tmp/f"; then
        fail=1
    fi
done
echo "folded stacks checked: $n profile events"
[ "$n" -gt 0 ] || { echo "FAIL: no profile checked"; exit 1; }
exit $fail
