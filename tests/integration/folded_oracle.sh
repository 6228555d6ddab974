#!/usr/bin/env bash
# Oracle: folded stacks that tracekit makes from real profiles, read back by tracekit, against
# independent computations (not goldens of tracekit's own output).
#  1. Callgrind (gzip, tests/data/callgrind/pass/gzip.out; the two builds of
#     tests/data/callgrind/builds/): `convert --to folded --min-share 0` adds up to the
#     profile's own summary line, and each function's self count (the lines it ends) is
#     callgrind_annotate's self cost of that function name (recursion levels, fib'2, summed),
#     up to the rounding of its lines.
#  2. `diff --format folded` of the two builds: each column adds up to its profile's summary.
#  3. XRay (the committed real traces): `convert --to folded --weight=calls` is, stack by
#     stack, `llvm-xray stack -all-stacks -stack-format=flame -aggregation-type=count` (threads
#     summed); the time form summed over each stack and the stacks below it is llvm-xray's
#     `-aggregation-type=time` (inclusive TSC ticks) over the TSC frequency `info` prints, up
#     to a nanosecond of rounding per line and 0.5 %.
#  4. Every folded file above read back: `report --format json` (each frame name's self and
#     total, before and after for the differential one; the stack, name and depth counts)
#     equals a Python reduction of its lines, `info` says differential for the diff, and
#     `convert --to folded` of it holds the same stacks with the same counts.
# flamegraph.pl (difffolded.pl, its reading of the lines) is not compared: FlameGraph is not a
# Debian package (`apt-cache policy flamegraph` finds none), so scripts/setup-deps.sh cannot
# install it.
set -u
cd "$(dirname "$0")/../.."
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
XRAY=$(command -v llvm-xray || command -v llvm-xray-14) || XRAY=
ANNOTATE=$(command -v callgrind_annotate) || ANNOTATE=

# reduce FOLDED LABEL [DIFFERENTIAL]: tracekit's report, info and convert --to folded of
# FOLDED against the reduction of its lines.
reduce() {
    "$TRACEKIT" report --format json --from folded "$1" >"$tmp/r.json" &&
        "$TRACEKIT" info --from folded "$1" >"$tmp/info" &&
        "$TRACEKIT" convert --from folded --to folded "$1" >"$tmp/again" ||
        { echo "FAIL: $2: tracekit cannot read its folded stacks back"; return 1; }
    python3 - "$1" "$tmp/r.json" "$tmp/info" "$tmp/again" "$2" "${3:-0}" <<'PY'
import json, sys
from collections import defaultdict
path, rjson, info, again, label, differential = sys.argv[1:7]
ncounts = 2 if differential == "1" else 1
def stacks(p):
    s = defaultdict(lambda: [0.0] * ncounts)
    for line in open(p):
        line = line.rstrip("\n")
        if not line:
            continue
        parts = line.rsplit(" ", ncounts)
        for k in range(ncounts):
            s[parts[0]][k] += float(parts[1 + k])
    return s
st = stacks(path)
self_, total = defaultdict(lambda: [0.0] * ncounts), defaultdict(lambda: [0.0] * ncounts)
depth = 0
for stack, counts in st.items():
    frames = stack.split(";")
    depth = max(depth, len(frames))
    for k in range(ncounts):
        self_[frames[-1]][k] += counts[k]
        for name in set(frames):
            total[name][k] += counts[k]
r = json.load(open(rjson))
bad = 0
def differ(a, b):
    return abs(a - b) > 1e-6 * max(1.0, abs(a))
after = ncounts - 1  # the second count is the "after" one of a differential file
want = {"stacks": len(st), "frame_names": len(total), "max_depth": depth,
        "total": sum(c[after] for c in st.values())}
if ncounts == 2:
    want["total_before"] = sum(c[0] for c in st.values())
for key, v in want.items():
    if differ(float(r.get(key, -1)), float(v)):
        print(f"FAIL: {label}: report's {key} is {r.get(key)}, the lines give {v}"); bad += 1
rows = {f["name"]: f for f in r["functions"]}
if set(rows) != set(total):
    print(f"FAIL: {label}: report has {len(rows)} names, the lines {len(total)}"); bad += 1
for name, row in rows.items():
    if name not in total:
        continue
    checks = [("self", self_[name][after]), ("total", total[name][after])]
    if ncounts == 2:
        checks += [("self_before", self_[name][0]), ("total_before", total[name][0])]
    for key, v in checks:
        if differ(float(row[key]), v):
            if bad < 10:
                print(f"FAIL: {label}: {name}: report's {key} {row[key]}, the lines give {v}")
            bad += 1
text = open(info).read()
if ("differential: yes" in text) != (ncounts == 2):
    print(f"FAIL: {label}: info says differential is {'differential: yes' in text}"); bad += 1
if stacks(again) != st:
    print(f"FAIL: {label}: convert --to folded changed the stacks or their counts"); bad += 1
print(f"{label}: {len(st)} stacks, {len(total)} names, report equals the lines"
      + (" (both counts)" if ncounts == 2 else "") + ("" if not bad else f": {bad} problems"))
sys.exit(1 if bad else 0)
PY
}

# the summary of a callgrind profile (its first event), from the file itself
summary() { xz -dcf "$1" | sed -n 's/^summary: *\([0-9]*\).*/\1/p' | head -1; }

# ---- 1. Callgrind profiles of a real program
for p in tests/data/callgrind/pass/gzip.out tests/data/callgrind/builds/v1.callgrind.out.xz \
    tests/data/callgrind/builds/v2.callgrind.out.xz; do
    label=${p#tests/data/callgrind/}
    "$TRACEKIT" convert --to folded --min-share 0 "$p" >"$tmp/cg.folded" ||
        { echo "FAIL: $label: convert --to folded"; fail=1; continue; }
    want=$(summary "$p")
    awk -v want="$want" -v l="$label" '{ s += $NF } END {
        d = s - want; if (d < 0) d = -d
        if (d > 0) { printf "FAIL: %s: the stacks add up to %.0f, the summary is %s\n", l, s, want; exit 1 }
        printf "%s: %d stacks add up to the summary, %s\n", l, NR, want }' "$tmp/cg.folded" || fail=1
    if [ -n "$ANNOTATE" ]; then
        xz -dcf "$p" >"$tmp/cg.out"
        "$ANNOTATE" --inclusive=no --threshold=100 "$tmp/cg.out" >"$tmp/annotate" 2>/dev/null ||
            { echo "FAIL: $label: callgrind_annotate"; fail=1; continue; }
        python3 - "$tmp/annotate" "$tmp/cg.folded" "$label" <<'PY' || fail=1
import re, sys
from collections import defaultdict
# callgrind_annotate's "COST (PCT)  file:function [object]" rows, summed by function name
# (without --separate-recs' level, fib'2: a frame's name is the function's)
ann = defaultdict(int)
for line in open(sys.argv[1]):
    m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)(?: \[[^]]*\])?$", line)
    if m and "PROGRAM TOTALS" not in line:
        name = re.sub(r"'\d+$", "", m.group(2).split(":", 1)[-1])
        ann[name] += int(m.group(1).replace(",", ""))
own, lines = defaultdict(float), defaultdict(int)
for line in open(sys.argv[2]):
    stack, count = line.rstrip("\n").rsplit(" ", 1)
    leaf = stack.split(";")[-1]
    own[leaf] += float(count)
    lines[leaf] += 1
bad = [(f, ann.get(f, 0), own.get(f, 0)) for f in set(ann) | set(own)
       if abs(ann.get(f, 0) - own.get(f, 0)) > lines.get(f, 0)]
for f, a, o in bad[:10]:
    print(f"FAIL: {sys.argv[3]}: {f}: self {o:.0f} in the stacks, callgrind_annotate {a}")
print(f"{sys.argv[3]}: {len(ann)} functions' self costs are callgrind_annotate's"
      + ("" if not bad else f": {len(bad)} differ"))
sys.exit(1 if bad else 0)
PY
    fi
    reduce "$tmp/cg.folded" "$label folded" || fail=1
    n=$((n + 1))
done
[ -n "$ANNOTATE" ] || echo "callgrind_annotate not installed: the self costs not compared"

# ---- 2. the differential stacks of the two builds
B=tests/data/callgrind/builds
"$TRACEKIT" diff --format folded "$B/v1.callgrind.out.xz" "$B/v2.callgrind.out.xz" >"$tmp/d.folded" ||
    { echo "FAIL: diff --format folded"; fail=1; }
awk -v a="$(summary "$B/v1.callgrind.out.xz")" -v b="$(summary "$B/v2.callgrind.out.xz")" '
    NF < 3 { print "FAIL: diff: a line without two counts: " $0; bad = 1 }
    { sa += $(NF - 1); sb += $NF }
    END {
        if (sa != a || sb != b) { printf "FAIL: diff: the columns add up to %.0f and %.0f, the summaries are %s and %s\n", sa, sb, a, b; bad = 1 }
        else printf "diff of the builds: %d stacks, the columns add up to the summaries %s and %s\n", NR, a, b
        exit bad }' "$tmp/d.folded" || fail=1
reduce "$tmp/d.folded" "diff folded" 1 || fail=1
n=$((n + 1))

# ---- 3. XRay traces
D=tests/data/xray
for t in calltree.fdr calltree-emutsc.fdr calltree.basic mtpool.fdr mtpool.basic; do
    case $t in calltree*) bin=$D/bin/calltree ;; *) bin=$D/bin/mtpool ;; esac
    "$TRACEKIT" convert --to folded --weight=calls -m "$bin" "$D/pass/$t" >"$tmp/calls.folded" &&
        "$TRACEKIT" convert --to folded -m "$bin" "$D/pass/$t" >"$tmp/time.folded" ||
        { echo "FAIL: $t: convert --to folded"; fail=1; continue; }
    if [ -n "$XRAY" ]; then
        hz=$("$TRACEKIT" info "$D/pass/$t" | sed -n 's/^tsc: [a-z]*, \([0-9]*\) Hz.*/\1/p')
        "$XRAY" stack -all-stacks -stack-format=flame -aggregation-type=count -instr_map="$bin" \
            "$D/pass/$t" >"$tmp/llvm.count" 2>"$tmp/e" &&
            "$XRAY" stack -all-stacks -stack-format=flame -aggregation-type=time -instr_map="$bin" \
                "$D/pass/$t" >"$tmp/llvm.time" 2>>"$tmp/e" ||
            { echo "FAIL: $t: llvm-xray stack: $(head -2 "$tmp/e")"; fail=1; continue; }
        python3 - "$tmp" "$t" "$hz" <<'PY' || fail=1
import sys
from collections import defaultdict
tmp, label, hz = sys.argv[1], sys.argv[2], float(sys.argv[3])
def load(p, llvm):
    s = defaultdict(float)
    for line in open(p):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        frames = stack.rstrip(";").split(";") if llvm else stack.split(";")
        if llvm and frames[0].startswith("thread_"):
            frames = frames[1:]  # llvm-xray's stacks are per thread: summed
        s[tuple(frames)] += float(count)
    return s
bad = 0
calls, lcalls = load(f"{tmp}/calls.folded", False), load(f"{tmp}/llvm.count", True)
for s in set(calls) | set(lcalls):
    if calls.get(s, 0) != lcalls.get(s, 0):
        if bad < 5:
            print(f"FAIL: {label}: {';'.join(s)}: {calls.get(s, 0):.0f} calls, llvm-xray {lcalls.get(s, 0):.0f}")
        bad += 1
time, ltime = load(f"{tmp}/time.folded", False), load(f"{tmp}/llvm.time", True)
incl, under = defaultdict(float), defaultdict(int)
for s, c in time.items():
    for i in range(1, len(s) + 1):
        incl[s[:i]] += c
        under[s[:i]] += 1
for s, ticks in ltime.items():
    ns = ticks / hz * 1e9
    if abs(incl.get(s, 0) - ns) > under.get(s, 0) + 1 + 0.005 * ns:
        if bad < 10:
            print(f"FAIL: {label}: {';'.join(s)}: {incl.get(s, 0):.0f} ns with its callees, llvm-xray {ns:.0f}")
        bad += 1
print(f"{label}: {len(calls)} stacks' calls and {len(ltime)} stacks' time are llvm-xray's"
      + ("" if not bad else f": {bad} differ"))
sys.exit(1 if bad else 0)
PY
    fi
    reduce "$tmp/calls.folded" "$t calls folded" || fail=1
    reduce "$tmp/time.folded" "$t time folded" || fail=1
    n=$((n + 2))
done
[ -n "$XRAY" ] || echo "llvm-xray not installed: the XRay stacks not compared with it"

echo "folded files checked: $n"
exit $fail
