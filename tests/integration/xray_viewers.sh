#!/usr/bin/env bash
# The viewer exports of every committed XRay trace are well formed:
#  - convert --to chrome is one JSON object with traceEvents; every "X" event has ts/dur with
#    exactly 3 decimals; per thread the X intervals nest strictly; process/thread names exist;
#    the number of X events equals the number of enter records;
#  - convert --to folded (calls) sums to the number of exits that closed a call, and (time) to the
#    total self time, which equals the callgrind export's total.
set -u
cd "$(dirname "$0")/../.."
TRACEKIT=${TRACEKIT:-build/tracekit}
D=tests/data/xray
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for t in calltree.fdr calltree-emutsc.fdr calltree-typed.fdr calltree.basic mtpool.fdr mtpool-wrapped.fdr mtpool.basic; do
    case $t in calltree-typed*) bin=$D/bin/calltree-typed ;; calltree*) bin=$D/bin/calltree ;; *) bin=$D/bin/mtpool ;; esac
    "$TRACEKIT" convert --to chrome -m "$bin" "$D/pass/$t" >"$tmp/c.json" || { fail=1; continue; }
    enters=$("$TRACEKIT" info -v "$D/pass/$t" | awk '$1 == "enter" || $1 == "enter-args" { n += $2 } END { print n + 0 }')
    python3 - "$tmp/c.json" "$enters" "$t" <<'PY' || fail=1
import json, re, sys, collections
text = open(sys.argv[1]).read()
doc = json.loads(text)
evs = doc["traceEvents"]
xs = [e for e in evs if e["ph"] == "X"]
bad = 0
for m in re.finditer(r'"(ts|dur)":(-?[0-9.]+)', text):
    if not re.fullmatch(r"-?[0-9]+\.[0-9]{3}", m.group(2)):
        bad += 1
by_thread = collections.defaultdict(list)
for e in xs:
    by_thread[(e["pid"], e["tid"])].append((round(e["ts"] * 1000), -round(e["dur"] * 1000)))
for key, iv in by_thread.items():
    iv.sort()
    stack = []
    for start, negdur in iv:
        end = start - negdur
        while stack and stack[-1] <= start:
            stack.pop()
        if stack and end > stack[-1]:
            bad += 1
        stack.append(end)
names = {(e["pid"], e.get("tid")) for e in evs if e["ph"] == "M"}
if len(xs) != int(sys.argv[2]):
    print(f"{sys.argv[3]}: {len(xs)} X events for {sys.argv[2]} enters"); bad += 1
if not names:
    bad += 1
print(f"chrome {sys.argv[3]}: {len(xs)} calls, {len(by_thread)} threads, {bad} problems")
sys.exit(1 if bad else 0)
PY
    calls=$("$TRACEKIT" convert --to folded --weight=calls -m "$bin" "$D/pass/$t" | awk '{ n += $NF } END { print n + 0 }')
    closed=$("$TRACEKIT" report --format=json 2>/dev/null "$D/pass/$t" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(f["count"] for f in d["functions"]))')
    selfns=$("$TRACEKIT" convert --to folded "$D/pass/$t" | awk '{ n += $NF } END { printf "%.0f", n }')
    total=$("$TRACEKIT" convert --to callgrind "$D/pass/$t" | sed -n 's/^totals: \([0-9]*\) .*/\1/p')
    diff=$(( selfns > total ? selfns - total : total - selfns ))
    if [ "$calls" != "$closed" ]; then echo "folded $t: $calls calls, report counts $closed"; fail=1; fi
    # per-path rounding to whole ns: allow one ns per line
    lines=$("$TRACEKIT" convert --to folded "$D/pass/$t" | wc -l)
    if [ "$diff" -gt "$lines" ]; then echo "folded $t: self time $selfns ns, callgrind total $total ns"; fail=1
    else echo "folded $t: $calls calls, $selfns ns of self time (callgrind total $total)"; fi
done
exit $fail
