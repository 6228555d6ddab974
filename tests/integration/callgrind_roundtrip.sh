#!/usr/bin/env bash
# Round trips: for every readable callgrind file (our valgrind profiles and the
# third-party corpus), dump(read(write(read(x)))) == dump(read(x)) with name and
# position compression and without, and `check` accepts what the writer wrote.
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
    "$TRACEKIT" dump --from callgrind "$f" >"$tmp/a" 2>/dev/null || continue  # unreadable inputs are tested elsewhere
    input_ok=0; "$TRACEKIT" check --from callgrind "$f" >/dev/null 2>&1 && input_ok=1
    for mode in compress no-compress; do
        opt=""; [ $mode = no-compress ] && opt=--no-compress
        "$TRACEKIT" convert --from callgrind --to callgrind $opt "$f" >"$tmp/w" || { echo "FAIL convert $mode: $f"; fail=1; continue; }
        [ $input_ok = 0 ] || "$TRACEKIT" check "$tmp/w" >/dev/null 2>"$tmp/chk" || { echo "FAIL check of written file ($mode): $f"; head -5 "$tmp/chk"; fail=1; }
        "$TRACEKIT" dump "$tmp/w" >"$tmp/b" || { echo "FAIL re-read ($mode): $f"; fail=1; continue; }
        if ! cmp -s "$tmp/a" "$tmp/b"; then
            echo "FAIL round trip ($mode): $f"; diff "$tmp/a" "$tmp/b" | head -10; fail=1
        fi
    done
    n=$((n + 1))
done
echo "$n files round-tripped"
[ $n -ge 20 ] || { echo "too few files"; exit 1; }
exit $fail
