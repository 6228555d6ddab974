#!/usr/bin/env bash
# annotate's inclusive column counts every call chain once, also under
# recursion: on every readable profile (ours and the third-party corpus), no
# line or instruction shows an inclusive cost above the program total, and no
# inclusive value is below the self value of its line (the sources found, the
# instructions, and the hottest file without a source, per line).
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
    # every file found and every function's instructions; the hottest file whose source is
    # not found per line (--file)
    "$TRACEKIT" annotate --from callgrind --all --instr --source-dir tests/data/callgrind/prog "$f" \
        >"$tmp/a.txt" 2>"$tmp/a.err" || { echo "annotate failed on $f"; cat "$tmp/a.err"; fail=1; continue; }
    nf=$(sed -n '/^=* sources not found/{n;p;q}' "$tmp/a.txt" | sed 's/^.*%)[ .0-9,]*  *//; s/ (code without line information)$//')
    if [ -n "$nf" ]; then
        "$TRACEKIT" annotate --from callgrind --file "$nf" "$f" >>"$tmp/a.txt" 2>"$tmp/a.err" ||
            { echo "annotate --file '$nf' failed on $f"; cat "$tmp/a.err"; fail=1; continue; }
    fi
    n=$((n + 1))
    mv "$tmp/r.json" "$tmp/$n.json" && mv "$tmp/a.txt" "$tmp/$n.txt" && printf '%s\n' "$f" >>"$tmp/names"
done
# one Python for every profile (a start of it costs more than what it checks of one)
[ $n = 0 ] || python3 - "$tmp" <<'PY' || fail=1
import json, re, sys

def check(name, rpath, apath):
    """True when every annotated row of apath keeps self <= inclusive <= total."""
    totals = json.load(open(rpath))["totals"]
    nev = len(totals)
    lines = open(apath, encoding="utf-8", errors="replace").read().split("\n")
    # the width of a cost column: a line with a self cost has its share right after the first
    first = [l for l in lines if re.match(r"^ *[\d,]+ \( *[\d.]+%\)", l)]
    cw = len(first[0].split(" (")[0]) if first else 0
    bad = 0
    rows = 0
    for line in lines:
        if not cw or line.startswith(("=", "-", "(")) or " => " in line or " -> " in line:
            continue  # headers, gaps, notes; call lines (a recursive call counts its nested calls)
        widths = [cw + 10] + [cw] * (nev - 1) + [cw] * nev  # the first self column has its share
        cols, pos = [], 0
        for w in widths:
            cols.append(line[pos:pos + w])
            pos += w + 1
        def num(s):
            s = re.sub(r"\(.*%\)", "", s).strip()
            return 0 if s in ("", ".") else int(s.replace(",", ""))
        try:
            self_ = [num(c) for c in cols[:nev]]
            incl = [num(c) for c in cols[nev:]]
        except ValueError:
            continue
        if not any(incl):
            continue
        rows += 1
        for j in range(nev):
            if incl[j] > totals[j] or incl[j] < self_[j]:
                bad += 1
                if bad <= 3:
                    print(f"{name}: event {j}: self {self_[j]} inclusive {incl[j]} total {totals[j]}: {line.rstrip()[:120]}")
    if bad:
        print(f"{name}: {bad} bad values")
        return False
    if rows == 0 and sum(totals):
        print(f"{name}: no annotated rows")
        return False
    return True

tmp = sys.argv[1]
names = open(tmp + "/names").read().split("\n")[:-1]
ok = [check(f, f"{tmp}/{k}.json", f"{tmp}/{k}.txt") for k, f in enumerate(names, 1)]
sys.exit(0 if all(ok) else 1)
PY
echo "$n profiles annotated"
[ "$n" -gt 20 ] || { echo "too few profiles"; fail=1; }
exit $fail
