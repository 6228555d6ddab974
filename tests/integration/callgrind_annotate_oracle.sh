#!/usr/bin/env bash
# Oracle: `tracekit annotate` against `callgrind_annotate --auto=yes` (valgrind) on the
# single-part valgrind profiles of tests/data/callgrind/pass, whose sources are in
# tests/data/callgrind/prog, for their first event:
#  - every source file both annotate: each line's self cost and its share of the total;
#  - the calls made on a line (callgrind_annotate's "=> file:function (Nx)" lines): the same
#    callees, counts and inclusive costs where one function has calls on the line
#    (callgrind_annotate takes the calls of one function per line, the last it read: where
#    several have, tracekit lists each callee of them all, at least callgrind_annotate's
#    count: docs/formats/callgrind.md, difference 7);
#  - tracekit's files hottest first, each header's self cost the sum of its lines';
#  - the files whose source is not found: callgrind_annotate's list of files it could not
#    find, which tracekit gives as one table, each with its self cost.
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/callgrind_profiles.sh
command -v callgrind_annotate >/dev/null || { echo "callgrind_annotate not installed"; exit 77; }
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
src=tests/data/callgrind/prog
for f in tests/data/callgrind/pass/*.out; do
    [ -s "$f" ] || continue
    annotate_can_read "$f" || continue
    case "$f" in *-mangled.out | *combined.out | *-every.out | *-bb.out | *-instr-only.out) continue ;; esac
    grep -q '^fl=.*\(demo\|mutual\|work\|inl\|threads\|cxx\)' "$f" || continue
    ev=$(sed -n 's/^events: *\([^ ]*\).*/\1/p' "$f" | head -1)
    callgrind_annotate --auto=yes --threshold=100 --context=1000000 --show="$ev" \
        --include="$src" "$f" >"$tmp/cga" 2>"$tmp/cga.err" ||
        { echo "callgrind_annotate failed on $f"; cat "$tmp/cga.err"; fail=1; continue; }
    "$TRACEKIT" annotate --all --context 1000000 --show "$ev" -I "$src" "$f" >"$tmp/tk" ||
        { echo "tracekit annotate failed on $f"; fail=1; continue; }
    "$TRACEKIT" convert --to json "$f" >"$tmp/model.json" ||
        { echo "tracekit convert --to json failed on $f"; fail=1; continue; }
    n=$((n + 1))
    python3 - "$f" "$tmp/cga" "$tmp/tk" "$tmp/model.json" "$ev" <<'PY' || fail=1
import json, os, re, sys
name, cga_path, tk_path, model_path, ev = sys.argv[1:]
model = json.load(open(model_path))
evi = model["events"].index(ev)
fails = []

def num(s):
    s = s.strip()
    return 0 if s in ("", ".") else int(s.replace(",", ""))

# callgrind_annotate: per source file (by its name in the profile), line -> (self, pct), and
# line -> {callee: (count, cost)}
cga, cga_missing = {}, []
cur = None
lineno = 0
section = None
total_line = re.compile(r"^\s*([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS")
for line in open(cga_path, encoding="utf-8", errors="replace").read().split("\n"):
    m = re.match(r"^-- Auto-annotated source: (?:(.*?) \+ )?(.*)$", line)
    if m:
        fname = m.group(2)
        cur = None if fname in cga else cga.setdefault(fname, ({}, {}))
        lineno, section = 0, "src"
        continue
    if line.startswith("The following files chosen for auto-annotation could not be found"):
        section, cur = "missing", None
        continue
    if section == "missing":
        if line.startswith("  "):
            cga_missing.append(line.strip())
        elif line.startswith("-" * 20) and cga_missing:
            section = None
        continue
    if cur is None or line.startswith("-" * 20) or line == "" and lineno == 0:
        continue
    m = re.match(r"^-- line (\d+) -+$", line)
    if m:
        lineno = int(m.group(1)) - 1
        continue
    m = re.match(r"^\s*([\d,]+) \(\s*([\d.]+)%\)  => (.*) \(([\d,]+)x\)$", line)
    if m:
        cur[1].setdefault(lineno, {})[m.group(3)] = (num(m.group(4)), num(m.group(1)))
        continue
    m = re.match(r"^\s*([\d,]+|\.)(?: \(\s*([\d.]+)%\))?\s\s(.*)$", line)
    if m:
        lineno += 1
        if m.group(1) != ".":
            cur[0][lineno] = (num(m.group(1)), float(m.group(2)))

# tracekit: the same, from its columns (the first self column is followed by its share)
tk, tk_missing, order = {}, {}, []
text = open(tk_path, encoding="utf-8", errors="replace").read().split("\n")
first = [l for l in text if re.match(r"^ *[\d,]+ \( *[\d.]+%\)", l)]
cw = len(first[0].split(" (")[0]) if first else 0
cur = None
for line in text:
    # "NAME: 1,234 Ir self", "NAME (WHERE FOUND): ..." when found elsewhere (-I)
    m = re.match(r"^================ (.*?)(?: \((.*)\))?: ([\d,]+) \S+ self", line)
    if m:
        fname = m.group(1)
        cur = tk.setdefault(fname, ({}, {}))
        order.append((num(m.group(3)), fname))
        lineno = 0
        continue
    if line.startswith("================ sources not found"):
        cur = "missing"
        continue
    if cur == "missing":
        if not line:
            cur = None
        else:
            tk_missing[line[cw + 10 + 1 + cw + 2:].strip()] = num(line[:cw])
        continue
    if cur is None or line.startswith("================") or not line:
        continue
    m = re.match(r"^-- line (\d+) -+$", line)
    if m:
        lineno = int(m.group(1)) - 1
        continue
    if line.startswith("-- "):
        continue
    cols, rest = line[:cw + 10 + 1 + cw + 1], line[cw + 10 + 1 + cw + 1:]
    m = re.match(r"^ => (.*) \(([\d,]+)x(, recursive)?\)$", rest)
    if m:
        cur[1].setdefault(lineno, {})[m.group(1)] = (num(m.group(2)), num(cols[cw + 11:]))
        continue
    if rest.startswith(" -> "):
        continue
    lineno += 1
    selfc = cols[:cw].strip()
    if selfc not in ("", "."):
        pct = float(re.search(r"\(\s*([\d.]+)%\)", cols).group(1))
        cur[0][lineno] = (num(selfc), pct)

# the functions with calls on each (file, line), from the model
callers = {}
fns = model["functions"]
for part in model["parts"]:
    for c in part["calls"]:
        callers.setdefault((c["file"], c["line"]), set()).add(c["fn"])

both = 0
for fname, (clines, ccalls) in cga.items():
    if fname not in tk:
        fails.append("%s: callgrind_annotate annotates it, tracekit does not" % fname)
        continue
    both += 1
    tlines, tcalls = tk[fname]
    for ln, (cost, pct) in clines.items():
        t = tlines.get(ln)
        if t is None or t[0] != cost or abs(t[1] - pct) > 0.0051:
            fails.append("%s:%d: callgrind_annotate %s (%.2f%%), tracekit %s" % (fname, ln, cost, pct, t))
    for ln in tlines:
        if ln not in clines:
            fails.append("%s:%d: tracekit %s, callgrind_annotate none" % (fname, ln, tlines[ln]))
    for ln, calls in ccalls.items():
        t = tcalls.get(ln, {})
        one = len(callers.get((fname, ln), ())) <= 1
        for callee, (count, cost) in calls.items():
            got = t.get(callee)
            if got is None or (one and got != (count, cost)) or (not one and got[0] < count):
                fails.append("%s:%d: => %s (%dx) %d: tracekit %s" % (fname, ln, callee, count, cost, got))
        if one and set(t) != set(calls):
            fails.append("%s:%d: callees %s, tracekit %s" % (fname, ln, sorted(calls), sorted(t)))
    total = sum(c for c, _ in tlines.values())
    hdr = [s for s, n in order if n == fname][0]
    if hdr != total:
        fails.append("%s: header self %d, its lines %d" % (fname, hdr, total))
if [s for s, _ in order] != sorted((s for s, _ in order), reverse=True):
    fails.append("files not hottest first: %s" % order)
missing = set(cga_missing) - {"???"}
if not missing <= set(tk_missing):
    fails.append("not found by callgrind_annotate, not in tracekit's table: %s" % sorted(missing - set(tk_missing))[:5])
if both == 0:
    fails.append("no source file annotated by both")
for f in fails[:8]:
    print("%s: %s" % (name, f))
if fails:
    sys.exit(1)
print("%s: %d files, %d lines, %d call lines agree" % (name, both,
      sum(len(v[0]) for v in cga.values()), sum(len(c) for v in cga.values() for c in v[1].values())))
PY
done
echo "$n profiles compared"
[ "$n" -ge 8 ] || { echo "too few profiles"; fail=1; }
exit $fail
