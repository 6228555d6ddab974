#!/usr/bin/env bash
# Oracle test: tracekit on the two real DCFGs (passlab, made by Intel's Pin
# dcfg-driver) against the outputs of Intel's own tools saved in
# tests/data/corpus/dcfg-thirdparty/official-tool-outputs:
#   dcfg-reader summary (instruction count, edges, per-image blocks, routines,
#   loops, inner-most loops; totals of routine calls, loop iterations, block
#   executions, static instructions), the source-loop CSVs, and dcfg-to-dot; and
#   `report --table statistics|source-loops|inner-source-loops` byte for byte.
set -u
cd "$(dirname "$0")/../.."
T=${TRACEKIT:-build/tracekit}
C=tests/data/corpus/dcfg-thirdparty
[ -d "$C" ] || { echo "no corpus at $C"; exit 77; }
command -v python3 >/dev/null || { echo "python3 needed"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
for which in whole region; do
    f=$C/passlab-DCFG/$which.log_0.dcfg.json.bz2
    "$T" report --format=json --top 0 "$f" >"$tmp/$which.json" || { echo "report failed on $which"; exit 1; }
    python3 - "$C/official-tool-outputs/$which.dcfg-reader.txt" "$tmp/$which.json" <<'PY' || fail=1
import json, re, sys
official = open(sys.argv[1]).read()
ours = json.load(open(sys.argv[2]))
assert ours["version"] == 1
p = ours["processes"][0]
def num(label, text=official, total=False):
    m = re.search(r"^\s*" + re.escape(label) + r"\s*,\s*(\d+)" + (r", ave" if total else ""), text, re.M)
    return int(m.group(1))
def tot(label):
    return num(label, total=True)
checks = [
    ("Num threads", p["threads"]), ("Instr count", p["instr_count"]), ("Num edges", p["internal_edges"]),
    ("Num images", p["images"]),
]
for label, key in (("Num routines", "routines"), ("Num routine calls", "routine_calls"), ("Num loops", "loops"),
                   ("Num loop iterations", "loop_iterations"), ("Num basic blocks", "blocks"),
                   ("Num static instrs", "static_instrs"), ("Num basic-block executions", "block_executions"),
                   ("Num dynamic instrs", "instr_count")):
    checks.append((label + " (total)", (tot(label), p[key])))
# per image sections
sections = re.split(r"^\s*Image , ", official, flags=re.M)[1:]
for sec, im in zip(sections, p["image_table"]):
    assert int(sec.split()[0]) == im["id"], (sec[:20], im["id"])
    for label, key in (("Num basic blocks", "blocks"), ("Num routines", "routines"), ("Num loops", "loops"),
                       ("Num inner-most loops", "inner_loops")):
        checks.append(("image %d %s" % (im["id"], label), (num(label, sec), im[key])))
    m = re.search(r"Load addr\s*,\s*(0x[0-9a-f]+)", sec)
    checks.append(("image %d load addr" % im["id"], (int(m.group(1), 16), int(im["load_addr"], 16))))
bad = 0
for label, val in checks:
    want, got = (val if isinstance(val, tuple) else (num(label), val))
    ok = want == got
    bad += not ok
    print("%-40s official %-10s tracekit %-10s %s" % (label, want, got, "ok" if ok else "MISMATCH"))
sys.exit(1 if bad else 0)
PY
done
# source-loop tables (whole): loopid,file:line,visits,iterations,static,dynamic
"$T" report --format=json --top 0 --table loops "$C/passlab-DCFG/whole.log_0.dcfg.json.bz2" >"$tmp/loops.json"
python3 - "$C/official-tool-outputs" "$tmp/loops.json" <<'PY' || fail=1
import csv, json, sys
d = sys.argv[1]
loops = {l["loop"]: l for l in json.load(open(sys.argv[2]))["processes"][0]["loop_table"]}
bad = 0
rows = list(csv.reader(open(d + "/whole.all_source_loops.csv")))[1:]
inner = list(csv.reader(open(d + "/whole.inner_source_loops.csv")))[1:]
for row, irow in zip(rows, inner):
    l = loops[int(row[0])]
    got = ["%d" % l["loop"], "%s:%d" % (l["file"], l["line"]), str(l["visits"]), str(l["iterations"]),
           str(l["static_instrs"]), str(l["dynamic_instrs"])]
    print("official", row, "\ntracekit", got)
    bad += got != row
    gi = [str(l["depth"])] + got[1:]
    print("official", irow, "\ntracekit", gi)
    bad += gi != irow
# loops with source lines are exactly the official source loops
with_src = sorted(k for k, l in loops.items() if l["file"])
bad += with_src != sorted(int(r[0]) for r in rows)
sys.exit(1 if bad else 0)
PY
# the tables of dcfg-reader, byte for byte: its statistics lines (the last 8 of its summary),
# the files of -all_source_loops_stats and -inner_source_loops_stats
for which in whole region; do
    f=$C/passlab-DCFG/$which.log_0.dcfg.json.bz2
    if ! cmp <("$T" report --table statistics "$f") <(tail -8 "$C/official-tool-outputs/$which.dcfg-reader.txt"); then
        echo "report --table statistics of $which differs from dcfg-reader's lines"; fail=1
    else echo "statistics of $which: dcfg-reader's 8 lines, byte for byte"; fi
done
for t in source-loops:all_source_loops inner-source-loops:inner_source_loops; do
    if ! cmp <("$T" report --table "${t%%:*}" "$C/passlab-DCFG/whole.log_0.dcfg.json.bz2") \
             "$C/official-tool-outputs/whole.${t#*:}.csv"; then
        echo "report --table ${t%%:*} differs from dcfg-reader's file"; fail=1
    else echo "${t%%:*}: dcfg-reader's file, byte for byte"; fi
done
# dcfg-to-dot: same lines (order aside) for node 31's routine, but for the special nodes, which
# tracekit labels with their names (dcfg-to-dot declares them bare: Graphviz draws "node1"),
# and the size tracekit bounds the drawing with (without --all) ...
bare='s/^ *\(node[0-9]*\) \[label="[A-Z_]*", shape=oval\];/\1;/'
"$T" convert --to dot --routine 31 "$C/passlab-DCFG/whole.log_0.dcfg.json.bz2" >"$tmp/r31.dot"
if ! diff <(sed 's/^ *//' "$C/official-tool-outputs/whole.routine-of-node31.dot" | sort) \
    <(sed "$bare; s/^ *//" "$tmp/r31.dot" | grep -v '^graph \[size=' | sort); then
    echo "dot of node 31's routine differs"; fail=1
else echo "dot of node 31's routine: same nodes, edges and labels"; fi
# ... and for everything (--all: exactly dcfg-to-dot's lines), except the routine labels of
# images 2 and 3, where dcfg-to-dot prints 32-bit truncated addresses and no names (its bug).
"$T" convert --to dot --all "$C/passlab-DCFG/whole.log_0.dcfg.json.bz2" >"$tmp/all.dot"
if ! diff <(grep -v 'label="Routine' "$C/official-tool-outputs/whole.all-routines.dot" | sed 's/^ *//' | sort) \
          <(grep -v 'label="Routine' "$tmp/all.dot" | sed "$bare; s/^ *//" | sort) ||
   ! diff <(grep 'label="Routine.*name=' "$C/official-tool-outputs/whole.all-routines.dot" | sed 's/^ *//' | sort) \
          <(grep 'label="Routine.*addr=0x4' "$tmp/all.dot" | sed 's/^ *//' | sort); then
    echo "whole-program dot differs"; fail=1
else echo "whole-program dot: same 1734 nodes and 2527 edges"; fi
exit $fail
