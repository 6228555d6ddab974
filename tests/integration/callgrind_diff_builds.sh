#!/usr/bin/env bash
# Oracle: `tracekit diff` of the Callgrind profiles of two builds of one program, built in
# two directories (tests/data/callgrind/builds/, made by make-builds.sh: /build/v1 with -O2,
# /build/v2 with -O1), against cg_diff (valgrind) of the Cachegrind profiles of the same
# two runs. Without a match every function of the program is in one profile only (new or
# -100 %); with --mod-filename 's,^/build/v[12]/,,' (the expression cg_diff is given) the
# change of each function name is cg_diff's. cg_diff keys a cost by the file of its line
# and the function's name, and Cachegrind has no recursion levels: both sides are summed by
# function name (Callgrind's fib'2 is fib) before they are compared, and a function without
# a symbol, which Callgrind names by its address (other in each build), is Cachegrind's ???.
# --match basename and --match name pair the same functions, shown with A's paths (a
# function of B that A has not, as is_even'2 of -O1, stays B's), but for
# those named by address and, with --match name, '(below main)', which libc has too (a name
# that several functions have pairs none of them).
set -u
cd "$(dirname "$0")/../.."
command -v cg_diff >/dev/null || { echo "cg_diff not installed"; exit 77; }
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
B=tests/data/callgrind/builds
A=$B/v1.callgrind.out.xz Z=$B/v2.callgrind.out.xz
fail=0
xz -dc $B/v1.cachegrind.out.xz >"$tmp/v1.cg"
xz -dc $B/v2.cachegrind.out.xz >"$tmp/v2.cg"
cg_diff --mod-filename='s,^/build/v[12]/,,' "$tmp/v1.cg" "$tmp/v2.cg" >"$tmp/cgdiff" || {
    echo "cg_diff failed"; exit 1; }
"$TRACEKIT" diff --all --format json "$A" "$Z" >"$tmp/plain.json" &&
    "$TRACEKIT" diff --all --format json --mod-filename 's,^/build/v[12]/,,' "$A" "$Z" \
        >"$tmp/mod.json" &&
    "$TRACEKIT" diff --all --format json --match basename "$A" "$Z" >"$tmp/base.json" &&
    "$TRACEKIT" diff --all --format json --match name "$A" "$Z" >"$tmp/name.json" || {
    echo "tracekit diff failed"; exit 1; }
python3 - "$tmp" <<'PY' || fail=1
import json, re, sys
from collections import defaultdict
tmp = sys.argv[1]
bad = 0
def load(name):
    return json.load(open(f"{tmp}/{name}.json"))
def by_name(d):
    s = defaultdict(int)
    for r in d["functions"]:
        n = re.sub(r"'\d+$", "", r["name"])
        s["???" if re.match(r"^0x[0-9a-f]+$", n) else n] += r["self_b"][0] - r["self_a"][0]
    return {k: v for k, v in s.items() if v}
# cg_diff's output: fl=, fn= and "line cost" lines (costs B - A)
cg = defaultdict(int)
fn = None
for line in open(f"{tmp}/cgdiff"):
    if line.startswith("fn="):
        fn = line[3:].strip()
    elif fn and re.match(r"^\d+ -?\d+$", line):
        cg[fn] += int(line.split()[1])
    elif line.startswith("summary:"):
        cg_total = int(line.split()[1])
cg = {k: v for k, v in cg.items() if v}
plain, mod = load("plain"), load("mod")
own = [r for r in plain["functions"] if r["object"].startswith("/build/")]
one_side = [r for r in own if (r["self_a"][0] == 0) != (r["self_b"][0] == 0)]
if not own or len(one_side) != len(own):
    print(f"without a match: {len(one_side)} of the program's {len(own)} rows are in one profile only, expected all"); bad = 1
t = mod["totals_b"][0] - mod["totals_a"][0]
if t != cg_total:
    print(f"totals: tracekit B - A {t}, cg_diff {cg_total}"); bad = 1
mine = by_name(mod)
for k in sorted(set(mine) | set(cg)):
    if mine.get(k, 0) != cg.get(k, 0):
        print(f"{k}: tracekit {mine.get(k, 0)}, cg_diff {cg.get(k, 0)}"); bad = 1
if any(r["object"].startswith("/build/") for r in mod["functions"]):
    print("--mod-filename left a /build/ path"); bad = 1
addr = re.compile(r"^0x[0-9a-f]+$")
for key in ("base", "name"):
    d = load(key)
    objects = defaultdict(set)
    for r in plain["functions"]:
        objects[r["name"]].add(r["object"].rsplit("/", 1)[-1])
    def paired(name):
        return not addr.match(name) and (key == "base" or len(objects[name]) == 1)
    # the program's functions (demo, libwork.so): one row each, with v1's paths, and the
    # changes --mod-filename gives
    rows = {(r["name"], r["object"].rsplit("/", 1)[-1]): r["self_b"][0] - r["self_a"][0]
            for r in d["functions"] if r["object"].startswith("/build/") and paired(r["name"])}
    want = {(r["name"], r["object"]): r["self_b"][0] - r["self_a"][0]
            for r in mod["functions"] if r["object"] in ("demo", "libwork.so") and paired(r["name"])}
    in_a = {r["name"] for r in plain["functions"] if r["object"].startswith("/build/v1/")}
    if any(not r["object"].startswith("/build/v1/") for r in d["functions"]
           if r["object"].startswith("/build/") and paired(r["name"]) and r["name"] in in_a):
        print(f"--match {key}: a row with v2's paths (B unpaired)"); bad = 1
    if not rows or rows != want:
        print(f"--match {key}: {sorted(set(rows.items()) ^ set(want.items()))[:6]}"); bad = 1
    if d["totals_a"] != mod["totals_a"] or d["totals_b"] != mod["totals_b"]:
        print(f"--match {key}: totals differ"); bad = 1
print(f"{len(mine)} function names with a change agree with cg_diff (total {cg_total:+d} Ir); "
      f"{len(own)} rows of the program's functions without a match")
sys.exit(bad)
PY
# text: the line that says how functions were matched
"$TRACEKIT" diff --match name "$A" "$Z" |
    grep -q '^matched: by name, [1-9][0-9]* functions of B paired with .*, [1-9][0-9]* left apart' || {
    echo "diff --match name: no 'matched:' line"; fail=1; }
exit $fail
