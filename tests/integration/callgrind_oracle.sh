#!/usr/bin/env bash
# Oracle: callgrind_annotate (valgrind) and `tracekit report` must agree on the
# program totals and on the self cost of every file:function for every event,
# on every single-part profile produced by valgrind in tests/data/callgrind/pass.
# callgrind_annotate keys functions by (file of the cost line, function name),
# which is `tracekit report --by=file-function`.
# Two documented differences are applied to tracekit's numbers before comparing
# (docs/formats/callgrind.md): callgrind_annotate adds the cost line after a
# `calls=0` line (a call still active at a dump) to the caller's self cost, and
# prints the `summary:` line as the program totals where tracekit prints the sum
# of the cost lines (which must equal the file's `totals:` line).
# Where neither difference applies, the text table of `tracekit report
# --by=file-function --threshold 99` must also list as many rows as
# callgrind_annotate's default list, which stops where the rows cover 99 % of the
# first event (tracekit's default is 20 rows: docs/cli.md).
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/callgrind_profiles.sh
command -v callgrind_annotate >/dev/null || { echo "callgrind_annotate not installed"; exit 77; }
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for f in tests/data/callgrind/pass/*; do
    [ -s "$f" ] || continue
    annotate_can_read "$f" || continue
    # callgrind_annotate does not expand --compress-mangled=yes names
    # (`(12) (10)'2'(7)`): a *-mangled.out profile is compared with
    # callgrind_annotate on the same run written without the option
    oracle_in=$f
    case "$f" in *-mangled.out) oracle_in=${f%-mangled.out}.out ;; esac
    callgrind_annotate --auto=no --threshold=100 "$oracle_in" >"$tmp/cga" 2>"$tmp/cga.err" || {
        echo "callgrind_annotate failed on $f"; cat "$tmp/cga.err"; fail=1; continue; }
    "$TRACEKIT" report --by=file-function --format=json "$f" >"$tmp/tk.json" || {
        echo "tracekit report failed on $f"; fail=1; continue; }
    callgrind_annotate --auto=no "$oracle_in" >"$tmp/cga99" 2>"$tmp/cga.err" || {
        echo "callgrind_annotate failed on $f"; cat "$tmp/cga.err"; fail=1; continue; }
    "$TRACEKIT" report --by=file-function --threshold 99 "$f" >"$tmp/tk.txt" || {
        echo "tracekit report failed on $f"; fail=1; continue; }
    "$TRACEKIT" convert --to json "$f" >"$tmp/model.json" || {
        echo "tracekit convert --to json failed on $f"; fail=1; continue; }
    n=$((n + 1))
    for x in cga tk.json model.json cga99 tk.txt; do mv "$tmp/$x" "$tmp/$n.$x" || fail=1; done
    printf '%s\n' "$f" >>"$tmp/names"
done
# one Python for every profile (a start of it costs more than what it checks of one)
[ $n = 0 ] || python3 - "$tmp" <<'PY' || fail=1
import json, re, sys


def check(name, cga_path, tk_path, model_path, cga99_path, tk_text_path):
    """Whether tracekit's numbers for profile name equal callgrind_annotate's."""
    tk = json.load(open(tk_path))
    model = json.load(open(model_path))
    events = tk["events"]
    ours = {}
    for e in tk["functions"]:
        key = e["file"] + ":" + e["name"]
        ours[key] = [a + b for a, b in zip(ours.get(key, [0] * len(events)), e["self"])]
    # callgrind_annotate: the cost line of a calls=0 counts as the caller's self cost
    fns = model["functions"]
    calls0 = False
    for part in model["parts"]:
        for c in part["calls"]:
            if c["count"] == 0:
                calls0 = True
                key = c["file"] + ":" + fns[c["fn"]]["name"]
                ours[key] = [a + b for a, b in zip(ours.get(key, [0] * len(events)), c["inclusive"])]
    # totals: callgrind_annotate prints summary: (when not zero), else totals:
    summary = file_totals = None
    def header_costs(line):
        v = [int(x, 0) for x in line.split(":", 1)[1].split()]
        return v + [0] * (len(events) - len(v))
    for line in open(name, encoding="utf-8", errors="replace"):
        if line.startswith("summary:"):
            summary = header_costs(line)
        elif line.startswith("totals:"):
            file_totals = header_costs(line)
    expected_cga_totals = summary if summary and any(summary) else (file_totals or tk["totals"])
    lines = open(cga_path, encoding="utf-8", errors="replace").read().split("\n")
    num = re.compile(r"\s*(\.|[0-9][0-9,]*)(?: \(\s*[0-9.]+%\))?")
    def costs(line):
        vals, pos = [], 0
        for _ in events:
            m = num.match(line, pos)
            if not m:
                return None, None
            vals.append(0 if m.group(1) == "." else int(m.group(1).replace(",", "")))
            pos = m.end()
        return vals, line[pos:].strip()
    errors = []
    totals = None
    section = 0
    seen = set()
    for line in lines:
        if line.startswith("-----"):
            continue
        if "PROGRAM TOTALS" in line:
            totals, _ = costs(line)
            continue
        if line.rstrip().endswith("file:function"):
            section = 1
            continue
        if section != 1 or not line.strip():
            if section == 1 and not line.strip() and seen:
                section = 2
            continue
        vals, key = costs(line)
        if vals is None:
            continue
        if key not in ours:
            m = re.match(r"^(.*) \[[^\]]*\]$", key)
            if m and m.group(1) in ours:
                key = m.group(1)
        if key not in ours:
            errors.append("callgrind_annotate row %r not in tracekit report" % key)
            continue
        seen.add(key)
        if ours[key] != vals:
            errors.append("%s: callgrind_annotate %s, tracekit %s" % (key, vals, ours[key]))
    if file_totals is not None and file_totals != tk["totals"]:
        errors.append("totals: file says %s, tracekit sums %s" % (file_totals, tk["totals"]))
    if totals != expected_cga_totals:
        errors.append("totals: callgrind_annotate %s, expected %s" % (totals, expected_cga_totals))
    for key, vals in ours.items():
        if vals[0] and key not in seen:
            errors.append("tracekit row %r (%s) missing from callgrind_annotate" % (key, vals))
    # the default lists (99 % coverage): as many rows, unless a documented
    # difference changes the costs or the total they are measured against
    def cga_rows(path):
        n, section = 0, 0
        for line in open(path, encoding="utf-8", errors="replace"):
            if line.rstrip().endswith("file:function"):
                section = 1
            elif section == 1 and not line.startswith("-----"):
                if not line.strip():
                    break
                n += 1
        return n
    tk_rows = sum(1 for i, line in enumerate(open(tk_text_path, encoding="utf-8", errors="replace"))
                  if i >= 5 and not line.startswith("("))
    listed = None
    if not calls0 and expected_cga_totals == tk["totals"]:
        listed = cga_rows(cga99_path)
        if listed != tk_rows:
            errors.append("default list: callgrind_annotate %d rows, tracekit %d" % (listed, tk_rows))
    if errors:
        print("%s: %d differences" % (name, len(errors)))
        for e in errors[:20]:
            print("  " + e)
        return False
    print("%s: %d functions, %d events: equal%s" % (name, len(seen), len(events),
          "" if listed is None else "; default list %d rows in both" % listed))
    return True


tmp = sys.argv[1]
names = open(tmp + "/names").read().split("\n")[:-1]
ok = [check(f, *(f"{tmp}/{k}.{x}" for x in ("cga", "tk.json", "model.json", "cga99", "tk.txt")))
      for k, f in enumerate(names, 1)]
sys.exit(0 if all(ok) else 1)
PY
echo "$n profiles compared"
[ $n -gt 0 ] || { echo "no profiles compared"; exit 1; }
exit $fail
