#!/usr/bin/env bash
# Oracle: tracekit against llvm-xray 14 on the committed real traces.
#  1. `report --format=csv --unit s` equals `llvm-xray account -format=csv` (count exactly; min,
#     median, 90p, 99p, max, sum within llvm's printed precision) on every trace llvm-xray
#     accounts; so does the default unit (us) and --unit ns, scaled, with their unit column.
#  2. The number of function records equals the number `llvm-xray fdr-dump` prints, per FDR trace.
#  3. On the multi-threaded traces, where `llvm-xray account` aborts, the per-function call
#     counts equal those of `llvm-xray convert -output-format=yaml` (enter records per function).
set -u
cd "$(dirname "$0")/../.."
XRAY=$(command -v llvm-xray || command -v llvm-xray-14) || { echo "llvm-xray not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
D=tests/data/xray
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

compare_csv() { # llvm.csv ours.csv label [unit]
    python3 - "$1" "$2" "$3" "${4:-s}" <<'PY' || return 1
import csv, sys
def load(p, ours):
    rows = {}
    with open(p) as f:
        for r in csv.DictReader(f):
            rows[int(r["funcid"])] = r
    return rows
llvm, ours, label, unit = load(sys.argv[1], 0), load(sys.argv[2], 1), sys.argv[3], sys.argv[4]
scale = {"s": 1, "ms": 1e3, "us": 1e6, "ns": 1e9}[unit]
bad = 0
if set(llvm) != set(ours):
    print(f"{label}: function sets differ: llvm {sorted(llvm)} tracekit {sorted(ours)}"); sys.exit(1)
for fid, a in llvm.items():
    b = ours[fid]
    if int(a["count"]) != int(b["count"]):
        print(f"{label}: func {fid} count {a['count']} != {b['count']}"); bad += 1
    if b["unit"] != unit:
        print(f"{label}: func {fid} unit {b['unit']}, expected {unit}"); bad += 1
    for k in ("min", "median", "90%ile", "99%ile", "max", "sum"):
        x, y = float(a[k]) * scale, float(b[k])
        if abs(x - y) > 1e-6 * abs(x) + 1e-15 * scale:
            print(f"{label}: func {fid} {k} llvm {x} tracekit {y}"); bad += 1
print(f"{label}: {len(llvm)} functions compared ({unit}), {bad} differences")
sys.exit(1 if bad else 0)
PY
}

# 0. The instrumentation maps: ids, function addresses and names equal `llvm-xray extract`.
for b in calltree mtpool; do
    "$XRAY" extract --symbolize "$D/bin/$b" 2>/dev/null |
        sed -n 's/.*id: \([0-9]*\), address: [^,]*, function: 0x\([0-9A-Fa-f]*\), kind: [a-z-]*, .*function-name: \([^,]*\), version.*/\1 \2 \3/p' |
        awk '{ print $1, tolower($2), $3 }' | sort -n -u >"$tmp/llvm-map"
    "$TRACEKIT" instr-map "$D/bin/$b" | awk '!/^#/ { sub(/^0x/, "", $2); print $1, $2, $5 }' | sort -n >"$tmp/our-map"
    if [ -s "$tmp/llvm-map" ] && cmp -s "$tmp/llvm-map" "$tmp/our-map"; then
        echo "extract $b: $(wc -l <"$tmp/our-map") functions, ids/addresses/names equal"
    else
        echo "extract $b differs:"; diff "$tmp/llvm-map" "$tmp/our-map" | head; fail=1
    fi
done

# C++ names: demangled like llvm-xray's symbolizer does.
python3 - "$XRAY" "$TRACEKIT" "$D/bin/cxxdemo" <<'PY' || fail=1
import re, subprocess, sys
xray, tracekit, binary = sys.argv[1:]
theirs = {}
for line in subprocess.run([xray, "extract", "--symbolize", binary], capture_output=True,
                           text=True).stdout.splitlines():
    m = re.search(r"id: (\d+), .*function-name: '?(.*?)'?, version", line)
    if m:
        theirs[int(m.group(1))] = m.group(2)
ours = {}
for line in subprocess.run([tracekit, "instr-map", "--format=json", binary], capture_output=True,
                           text=True).stdout.splitlines():
    m = re.match(r'[{,]?\{"id":(\d+),.*"name":"(.*?)","file"', line)
    if m:
        ours[int(m.group(1))] = m.group(2)
bad = sum(1 for k in theirs if theirs[k] != ours.get(k))
print(f"extract cxxdemo: {len(theirs)} C++ functions, {bad} names differ")
sys.exit(1 if bad or not theirs else 0)
PY

for t in calltree.fdr calltree-emutsc.fdr calltree.basic calltree-emutsc.basic; do
    "$XRAY" account -format=csv -sort=funcid "$D/pass/$t" -o "$tmp/llvm.csv" 2>"$tmp/llvm.err" ||
        { echo "llvm-xray account failed on $t:"; head -3 "$tmp/llvm.err"; fail=1; continue; }
    "$TRACEKIT" report --format=csv --sort=funcid --unit s "$D/pass/$t" >"$tmp/ours.csv" || { fail=1; continue; }
    compare_csv "$tmp/llvm.csv" "$tmp/ours.csv" "account $t" s || fail=1
    "$TRACEKIT" report --format=csv --sort=funcid "$D/pass/$t" >"$tmp/ours.csv" || { fail=1; continue; }
    compare_csv "$tmp/llvm.csv" "$tmp/ours.csv" "account $t" us || fail=1
    "$TRACEKIT" report --format=csv --sort=funcid --unit ns "$D/pass/$t" >"$tmp/ours.csv" || { fail=1; continue; }
    compare_csv "$tmp/llvm.csv" "$tmp/ours.csv" "account $t" ns || fail=1
done

for t in calltree.fdr calltree-emutsc.fdr calltree-typed.fdr mtpool.fdr mtpool-emutsc.fdr mtpool-wrapped.fdr; do
    want=$("$XRAY" fdr-dump "$D/pass/$t" 2>/dev/null | grep -c '^<Function')
    got=$("$TRACEKIT" info "$D/pass/$t" | sed -n 's/^function records: //p')
    if [ "$want" != "$got" ]; then echo "fdr-dump $t: llvm $want function records, tracekit $got"; fail=1
    else echo "fdr-dump $t: $got function records, equal"; fi
done

for t in mtpool.fdr mtpool-emutsc.fdr mtpool.basic; do
    if "$XRAY" account "$D/pass/$t" >/dev/null 2>&1; then
        echo "note: llvm-xray account now succeeds on $t"
    fi
    "$XRAY" convert -output-format=yaml "$D/pass/$t" -o "$tmp/t.yaml" 2>/dev/null || { echo "convert failed on $t"; fail=1; continue; }
    python3 - "$tmp/t.yaml" >"$tmp/llvm-counts" <<'PY'
import re, sys, collections
c = collections.Counter()
for line in open(sys.argv[1]):
    m = re.search(r"function:\s*'?(\d+)'?.*kind:\s*function-(enter|enter-arg)\b", line)
    if m: c[int(m.group(1))] += 1
for k in sorted(c): print(k, c[k])
PY
    "$TRACEKIT" report --format=csv --sort=funcid "$D/pass/$t" |
        awk -F, 'NR > 1 { print $1, $2 + $(NF - 1) }' >"$tmp/our-counts"
    if cmp -s "$tmp/llvm-counts" "$tmp/our-counts"; then echo "calls per function $t: equal ($(wc -l <"$tmp/our-counts") functions)"
    else echo "calls per function $t differ:"; diff "$tmp/llvm-counts" "$tmp/our-counts" | head; fail=1; fi
done
# 4. Folded stacks against `llvm-xray stack -all-stacks -stack-format=flame -aggregate-threads`:
#    calls per stack equal its -aggregation-type=count exactly; llvm's time per stack is the
#    inclusive time in ticks, so tracekit's self nanoseconds are summed over each stack's subtree
#    and compared after scaling (each folded line is rounded to a whole ns).
for t in mtpool.fdr calltree.fdr mtpool.basic calltree.basic mtpool-emutsc.fdr; do
    bin=$D/bin/${t%%[.-]*}
    python3 - "$XRAY" "$TRACEKIT" "$bin" "$D/pass/$t" <<'PY' || fail=1
import collections, subprocess, sys
xray, tracekit, binary, trace = sys.argv[1:]
def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()
def llvm(agg):
    rows = {}
    for line in run([xray, "stack", "-instr_map=" + binary, "-all-stacks", "-stack-format=flame",
                     "-aggregate-threads", "-aggregation-type=" + agg, trace]):
        path, _, v = line.rpartition(" ")
        rows[path.rstrip(";")] = int(v)
    return rows
def ours(weight):
    rows = {}
    for line in run([tracekit, "convert", "--to", "folded", "--weight=" + weight, "-m", binary, trace]):
        path, _, v = line.rpartition(" ")
        rows[path] = int(v)
    return rows
freq = [l for l in run([tracekit, "info", trace]) if l.startswith("tsc:")][0]
hz = float(freq.split(",")[1].split()[0])
count_a, count_b = llvm("count"), ours("calls")
bad = sum(1 for k in set(count_a) | set(count_b) if count_a.get(k) != count_b.get(k))
time_a, self_b = llvm("time"), ours("time")
incl, lines = collections.Counter(), collections.Counter()
for k, v in self_b.items():
    parts = k.split(";")
    for i in range(1, len(parts) + 1):
        incl[";".join(parts[:i])] += v
        lines[";".join(parts[:i])] += 1
for k, ticks in time_a.items():
    want = ticks * 1e9 / hz
    if abs(incl.get(k, 0) - want) > lines.get(k, 0) + 1:
        bad += 1
        print(f"  {k}: llvm {want:.0f} ns, tracekit {incl.get(k, 0)} ns")
print(f"stack {trace.split('/')[-1]}: {len(count_a)} stacks, calls and inclusive time compared, {bad} differences")
sys.exit(1 if bad else 0)
PY
done

# 5. convert --to callgrind: tracekit's own callgrind check accepts it, and callgrind_annotate
#    reads it with the same program totals.
if command -v callgrind_annotate >/dev/null; then
    for t in calltree.fdr mtpool.fdr mtpool.basic; do
        bin=$D/bin/${t%%.*}
        "$TRACEKIT" convert --to callgrind -m "$bin" "$D/pass/$t" -o "$tmp/out.callgrind" --force || { fail=1; continue; }
        "$TRACEKIT" check "$tmp/out.callgrind" >/dev/null 2>&1 || { echo "callgrind check failed on $t"; fail=1; }
        ours=$(sed -n 's/^totals: //p' "$tmp/out.callgrind")
        theirs=$(callgrind_annotate "$tmp/out.callgrind" 2>/dev/null | sed -n 's/ *(100.0%)//g; s/  *PROGRAM TOTALS//p' | tr -d , | xargs)
        if [ "$ours" = "$theirs" ]; then echo "callgrind $t: totals $ours, equal in callgrind_annotate"
        else echo "callgrind $t: totals '$ours', callgrind_annotate '$theirs'"; fail=1; fi
    done
fi
exit $fail
