#!/usr/bin/env bash
# Round trips: generated and hand-written WET traces through the writers.
#  comprehensive -> convert --to wet -> same dump, and check accepts it;
#  comprehensive -> convert --to wet-history -> same dump as the history the
#  generator wrote (when its buffer holds every dependence), and check accepts
#  the pair (every history dependence is in the comprehensive trace).
set -eu
cd "$(dirname "$0")/../.."
T=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O1 -o "$tmp/wet_gen" tests/gen/wet_gen.c
traces=(tests/data/wet/pass/*.wet)
"$tmp/wet_gen" --iterations 40 --seed 3 -o "$tmp/gen.wet" --history "$tmp/gen.hist" --history-limit 100000000
"$tmp/wet_gen" --iterations 9 --seed 11 --no-debug -o "$tmp/nodebug.wet"
traces+=("$tmp/gen.wet" "$tmp/nodebug.wet")
for t in "${traces[@]}"; do
    "$T" dump "$t" >"$tmp/a.dump"
    "$T" convert --to wet -o "$tmp/b.wet" --force "$t"
    "$T" check "$tmp/b.wet" 2>/dev/null
    "$T" dump "$tmp/b.wet" >"$tmp/b.dump"
    cmp "$tmp/a.dump" "$tmp/b.dump" || { echo "round trip changed $t"; exit 1; }
    "$T" convert --to wet -o "$tmp/c.wet" --force "$tmp/b.wet"
    cmp "$tmp/b.wet" "$tmp/c.wet" || { echo "writer not canonical for $t"; exit 1; }
    "$T" convert --to wet-history -o "$tmp/h.hist" --force "$t"
    if [ -s "$tmp/h.hist" ]; then "$T" check "$tmp/h.hist" "$t" 2>/dev/null; fi
    "$T" convert --to json -o "$tmp/j.json" --force "$t"
    python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/j.json"
done
# the generator's history (all dependences, execution order) = the written history
"$T" convert --to wet-history -o "$tmp/gen2.hist" --force "$tmp/gen.wet"
"$T" dump "$tmp/gen.hist" >"$tmp/h1.dump"
"$T" dump "$tmp/gen2.hist" >"$tmp/h2.dump"
cmp "$tmp/h1.dump" "$tmp/h2.dump" || { echo "history differs from the generator's"; exit 1; }
"$T" check "$tmp/gen.hist" "$tmp/gen.wet" 2>/dev/null
# a history slice equals the comprehensive slice mapped to addresses (all deps)
"$T" slice "$tmp/gen.wet" -c 1126:0 --lines | sed -n '/^$/,$p' >"$tmp/l1"
addr=$("$T" dump "$tmp/gen.wet" | sed -n 's/^instr 1126 addr \(0x[0-9a-f]*\) .*/\1/p')
"$T" slice "$tmp/gen.hist" -c "$addr#0" --static "$tmp/gen.wet" --lines | sed -n '/^$/,$p' >"$tmp/l2"
cmp "$tmp/l1" "$tmp/l2" || { echo "history slice lines differ"; diff "$tmp/l1" "$tmp/l2"; exit 1; }
# a limited history (the last 50 dependences) is a subset of the whole trace
"$tmp/wet_gen" --iterations 40 --seed 3 -o "$tmp/gen.wet" --history "$tmp/last50.hist" --history-limit 50
[ "$(wc -l <"$tmp/last50.hist")" = 50 ] || { echo "generator history limit"; exit 1; }
"$T" check "$tmp/last50.hist" "$tmp/gen.wet" 2>/dev/null
echo "round trips ok (${#traces[@]} traces)"
