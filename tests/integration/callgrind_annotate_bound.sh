#!/usr/bin/env bash
# annotate's inclusive column counts every call chain once, also under
# recursion: on every readable profile (ours and the third-party corpus), no
# line or instruction shows an inclusive cost above the program total, and no
# inclusive value is below the self value of its line.
set -u
cd "$(dirname "$0")/../.."
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
. tests/integration/lib/callgrind_profiles.sh
files=("${profiles[@]}" examples/fib.callgrind)
for f in "${files[@]}"; do
    [ -s "$f" ] || continue
    "$TRACEKIT" report --from callgrind --format=json "$f" >"$tmp/r.json" 2>/dev/null || continue
    "$TRACEKIT" annotate --from callgrind --all --source-dir tests/data/callgrind/prog "$f" \
        >"$tmp/a.txt" 2>"$tmp/a.err" || { echo "annotate failed on $f"; cat "$tmp/a.err"; fail=1; continue; }
    n=$((n + 1))
    python3 - "$f" "$tmp/r.json" "$tmp/a.txt" <<'PY' || fail=1
import json, sys
name, rpath, apath = sys.argv[1:]
totals = json.load(open(rpath))["totals"]
nev = len(totals)
cw = max([14] + [len(f"{t:,}") for t in totals])  # annotate's column width
bad = 0
rows = 0
for line in open(apath, encoding="utf-8", errors="replace"):
    if len(line) < 2 * (cw + 1) * nev or line.startswith(("=", "-", "Columns", "(calls", "Events")):
        continue
    cols = [line[(cw + 1) * i:(cw + 1) * i + cw].strip() for i in range(2 * nev)]
    if not any(cols[nev:]):
        continue
    def num(s):
        return 0 if s in ("", ".") else int(s.replace(",", ""))
    try:
        self_ = [num(c) for c in cols[:nev]]
        incl = [num(c) for c in cols[nev:]]
    except ValueError:
        continue
    rows += 1
    for j in range(nev):
        if incl[j] > totals[j] or incl[j] < self_[j]:
            bad += 1
            if bad <= 3:
                print(f"{name}: event {j}: self {self_[j]} inclusive {incl[j]} total {totals[j]}: {line.rstrip()[:120]}")
if bad:
    print(f"{name}: {bad} bad values")
    sys.exit(1)
if rows == 0 and sum(totals):
    print(f"{name}: no annotated rows")
    sys.exit(1)
PY
done
echo "$n profiles annotated"
[ "$n" -gt 20 ] || { echo "too few profiles"; fail=1; }
exit $fail
