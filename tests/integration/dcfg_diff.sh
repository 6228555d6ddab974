#!/usr/bin/env bash
# Oracle: `tracekit diff` of DCFGs of real programs recorded here (a C program on two
# inputs, gzip -1 against gzip -9 of one file) against the same difference computed from
# the two files' JSON in Python: every image, routine, block and edge of one side only or
# with other figures is a row, with its figures on both sides, and no other; each table is
# ordered by the size of its change; --top cuts each table and keeps its first rows; text,
# JSON and CSV hold the same rows.
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/record.sh
record_setup
fail=0

cat >"$tmp/count.c" <<'C'
#include <stdio.h>
#include <string.h>
__attribute__((noinline)) static long vowels(const char *s) {
    long n = 0;
    for (; *s; s++) n += strchr("aeiou", *s) != NULL;
    return n;
}
__attribute__((noinline)) static long sum(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += i % 3;
    return s;
}
int main(int argc, char **argv) {
    long t = 0;
    for (int i = 1; i < argc; i++) t += vowels(argv[i]) + sum((int)strlen(argv[i]) * 10);
    printf("%ld\n", t);
    return 0;
}
C
cc -O1 -g -o "$tmp/count" "$tmp/count.c" || exit 1
record_run record -q -o "$tmp/count-a" -- "$tmp/count" banana >/dev/null || exit 1
record_run record -q -o "$tmp/count-b" -- "$tmp/count" banana onomatopoeia >/dev/null || exit 1
pairs="count-a:count-b"
if command -v gzip >/dev/null; then
    seq 1 5000 >"$tmp/numbers.txt"
    record_run record -q -o "$tmp/gzip-1" -- gzip -1 -c "$tmp/numbers.txt" >/dev/null || exit 1
    record_run record -q -o "$tmp/gzip-9" -- gzip -9 -c "$tmp/numbers.txt" >/dev/null || exit 1
    pairs="$pairs gzip-1:gzip-9"
fi
for pair in $pairs; do
    a=$tmp/${pair%%:*}.dcfg.json b=$tmp/${pair#*:}.dcfg.json
    "$TRACEKIT" diff --format json --top 0 "$a" "$b" >"$tmp/all.json" &&
        "$TRACEKIT" diff --format json --top 3 "$a" "$b" >"$tmp/top.json" &&
        "$TRACEKIT" diff --format csv --top 0 "$a" "$b" >"$tmp/all.csv" &&
        "$TRACEKIT" diff --top 3 "$a" "$b" >"$tmp/top.txt" ||
        { echo "$pair: diff failed"; fail=1; continue; }
    python3 - "$a" "$b" "$tmp"/{all.json,top.json,all.csv,top.txt} "$pair" <<'PY' || fail=1
import csv, json, sys

def rows(t):
    return [dict(zip(t[0], r)) for r in t[1:]] if t else []

def num(v):
    return int(v, 0) if isinstance(v, str) else v

def side(path):
    """The figures of each table of the file's one process, by key."""
    d = json.load(open(path))
    types = {r["EDGE_TYPE_ID"]: r["EDGE_TYPE"] for r in rows(d["EDGE_TYPES"])}
    special = {r["NODE_ID"]: r["NODE_NAME"] for r in rows(d["SPECIAL_NODES"])}
    proc = rows(d["PROCESSES"])[0]["PROCESS_DATA"]
    t = {"images": {}, "routines": {}, "blocks": {}, "edges": {}}
    where = {}  # node id -> key
    blocks = {}
    for im in rows(proc["IMAGES"]):
        data, iid = im["IMAGE_DATA"], im["IMAGE_ID"]
        execs = instrs = 0
        for b in rows(data.get("BASIC_BLOCKS")):
            key = (iid, num(b["ADDR_OFFSET"]))
            assert key not in t["blocks"], "two blocks at %r" % (key,)
            blocks[b["NODE_ID"]] = b
            where[b["NODE_ID"]] = key
            t["blocks"][key] = (b["NODE_ID"], b["COUNT"], b["COUNT"] * b["NUM_INSTRS"])
            execs += b["COUNT"]
            instrs += b["COUNT"] * b["NUM_INSTRS"]
        t["images"][(iid,)] = (iid, execs, instrs)
        for r in rows(data.get("ROUTINES")):
            e = r["ENTRY_NODE_ID"]
            own = sum(blocks[n["NODE_ID"]]["COUNT"] * blocks[n["NODE_ID"]]["NUM_INSTRS"]
                      for n in rows(r["NODES"]))
            t["routines"][where[e]] = (e, blocks[e]["COUNT"], own)
    for e in rows(proc["EDGES"]):
        key = (where.get(e["SOURCE_NODE_ID"], special.get(e["SOURCE_NODE_ID"])),
               where.get(e["TARGET_NODE_ID"], special.get(e["TARGET_NODE_ID"])),
               types[e["EDGE_TYPE_ID"]])
        assert key not in t["edges"], "two edges %r" % (key,)
        t["edges"][key] = (e["EDGE_ID"], sum(e["COUNT_PER_THREAD"]), 0)
    return t

A, B = side(sys.argv[1]), side(sys.argv[2])
diff = json.load(open(sys.argv[3]))["processes"][0]
top = json.load(open(sys.argv[4]))["processes"][0]
name = sys.argv[7]
bad = 0
for table in ("images", "routines", "blocks", "edges"):
    want = {}
    for key in set(A[table]) | set(B[table]):
        a, b = A[table].get(key), B[table].get(key)
        if a and b and a[1:] == b[1:]:
            continue
        fig = lambda x, i: x[i] if x else 0
        want[(a[0] if a else None, b[0] if b else None)] = (
            [fig(a, 1), fig(b, 1)], [fig(a, 2), fig(b, 2)])
    count = {"images": "executions", "routines": "calls"}.get(table, "count")
    got = {tuple(r["id"]): (r[count], r.get("instructions", [0, 0])) for r in diff[table]}
    sizes = [abs(r["change"]) for r in diff[table]]  # signed B - A, ordered by its size
    ok = got == want and sizes == sorted(sizes, reverse=True) and \
        diff["rows"][table] == len(want) and top[table] == diff[table][:3]
    bad += not ok
    print("%s: %s: %d rows %s" % (name, table, len(got), "as computed" if ok else "DIFFER"))
    if got != want:
        for k in sorted(set(got) ^ set(want), key=str)[:5]:
            print("   ", k, got.get(k), want.get(k))
# CSV and text: the same rows
csv_rows = [r for r in csv.DictReader(open(sys.argv[5])) if r["table"] == "block"]
bad += [int(r["change"]) for r in csv_rows] != [r["change"] for r in diff["blocks"]]
text = open(sys.argv[6]).read()
first = diff["routines"][0]
label = first["symbol"] + ("+0x%x" % first["symbol_offset"] if first["symbol_offset"] else "")
bad += ("%d  %s\n" % (first["image"], label)) not in text
print("%s: the largest change of a routine: %s, %d instructions" % (name, label, first["change"]))
sys.exit(1 if bad else 0)
PY
done
exit $fail
