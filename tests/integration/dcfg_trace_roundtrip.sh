#!/usr/bin/env bash
# DCFG-Trace round trips on generated programs: random CFGs (calls, loops,
# indirect branches) and walks -> DCFG + edge list -> encode at every level
# (and --compat=intel) -> decode must give the walk back exactly, check
# --dcfg must accept the pair, serial and parallel decoding must agree, and
# dump must not depend on the level (among the one-edge levels); --what
# blocks, addrs and calls must not depend on the number of threads. The
# same edge lists with gaps (lines left out, as `decode --what edges` prints
# a trace whose chunks are not contiguous) must encode at every level to
# traces that decode to them and that check --dcfg accepts.
set -eu
cd "$(dirname "$0")/../.."
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O2 -D_GNU_SOURCE -o "$tmp/gen" tests/gen/dcfg_trace_gen.c
fail=0
for spec in "1 4 1 3000 5000" "2 12 2 20000 20000" "3 30 4 8000 3000" "4 3 3 500 100000" "5 60 2 30000 0"; do
    set -- $spec
    seed=$1 routines=$2 threads=$3 edges=$4 chunk=$5
    "$tmp/gen" --seed "$seed" --routines "$routines" --threads "$threads" --edges-per-thread "$edges" \
        --pid $((1000 + seed)) --dcfg "$tmp/g.dcfg.json" --edges "$tmp/g.edges"
    chunkopt="--chunk-instrs $chunk"
    [ "$chunk" = 0 ] && chunkopt="--chunk-instrs 0 --chunk-edges 777"
    for level in 0 1 2 3 4 5 6 7 8 9 intel; do
        lv="--level $level"
        [ "$level" = intel ] && lv="--compat=intel"
        out="$tmp/t.$level.trace.json"
        "$TRACEKIT" encode --force --dcfg "$tmp/g.dcfg.json" $lv $chunkopt -o "$out" "$tmp/g.edges"
        "$TRACEKIT" decode -j 1 "$out" >"$tmp/d1"
        "$TRACEKIT" decode -j 2 "$out" >"$tmp/d2"
        if ! cmp -s "$tmp/d1" "$tmp/g.edges"; then echo "seed $seed level $level: decode differs from the walk"; fail=1; fi
        if ! cmp -s "$tmp/d1" "$tmp/d2"; then echo "seed $seed level $level: parallel decode differs"; fail=1; fi
        if ! "$TRACEKIT" check --dcfg "$tmp/g.dcfg.json" "$out" >"$tmp/check" 2>&1; then
            echo "seed $seed level $level: check failed"; cat "$tmp/check"; fail=1
        fi
        if grep -q ': warning:' "$tmp/check"; then echo "seed $seed level $level: check warns"; cat "$tmp/check"; fail=1; fi
        # levels 0-6 and intel cut the same chunks (one edge per transition); 7-9 may use
        # multi-edge transitions, whose chunks end after a whole transition
        "$TRACEKIT" dump "$out" >"$tmp/dump.$level"
        if [ "$level" = intel ] || [ "$level" -lt 7 ]; then
            if ! cmp -s "$tmp/dump.$level" "$tmp/dump.0"; then echo "seed $seed level $level: dump differs from level 0"; fail=1; fi
        fi
        if [ "$level" = intel ] || [ "$level" = 9 ]; then
            # listings that need the DCFG are formatted on the decoding threads too
            for what in blocks addrs calls; do
                "$TRACEKIT" decode -j 1 --what $what --dcfg "$tmp/g.dcfg.json" "$out" >"$tmp/w1"
                "$TRACEKIT" decode -j 3 --what $what --dcfg "$tmp/g.dcfg.json" "$out" >"$tmp/w3"
                if ! cmp -s "$tmp/w1" "$tmp/w3"; then echo "seed $seed level $level: parallel --what $what differs"; fail=1; fi
            done
        fi
        if [ "$level" = intel ] && grep -q '<' "$out"; then echo "seed $seed: --compat=intel wrote a dictionary reference"; fail=1; fi
    done
    # gaps: every 97th edge left out, and a run of 300 (the encoder cuts a chunk at each)
    awk 'NR % 97 != 0 && (NR < 1000 || NR > 1300)' "$tmp/g.edges" >"$tmp/gap.edges"
    for level in 0 1 2 3 4 5 6 7 8 9 intel; do
        lv="--level $level"
        [ "$level" = intel ] && lv="--compat=intel"
        out="$tmp/gap.$level.trace.json"
        "$TRACEKIT" encode --force --dcfg "$tmp/g.dcfg.json" $lv $chunkopt -o "$out" "$tmp/gap.edges"
        "$TRACEKIT" decode -j 2 "$out" >"$tmp/d1"
        if ! cmp -s "$tmp/d1" "$tmp/gap.edges"; then echo "seed $seed level $level: gaps: decode differs"; fail=1; fi
        if ! "$TRACEKIT" check --dcfg "$tmp/g.dcfg.json" "$out" >"$tmp/check" 2>&1; then
            echo "seed $seed level $level: gaps: check failed"; cat "$tmp/check"; fail=1
        fi
    done
    # a compressed edge list encodes to the same trace (the size hint sees through it)
    gzip -c "$tmp/g.edges" >"$tmp/g.edges.gz"
    "$TRACEKIT" encode --force --dcfg "$tmp/g.dcfg.json" --level 9 $chunkopt -o "$tmp/t.gz.trace.json" "$tmp/g.edges.gz"
    if ! cmp -s "$tmp/t.gz.trace.json" "$tmp/t.9.trace.json"; then echo "seed $seed: encoding the .gz edge list differs"; fail=1; fi
    # the same instruction total four ways: INSTR_COUNT, callgrind, bbv, folded
    out="$tmp/t.9.trace.json"
    want=$("$TRACEKIT" info -v "$out" | sed -n 's/.* \([0-9]*\) instructions* (INSTR_COUNT).*/\1/p' | awk '{ s += $1 } END { print s }')
    "$TRACEKIT" convert --to callgrind --force --dcfg "$tmp/g.dcfg.json" -o "$tmp/g.cg" "$out"
    cg=$(sed -n 's/^totals: //p' "$tmp/g.cg" | awk '{ s += $1 } END { print s }')
    bbv=$("$TRACEKIT" convert --to bbv --interval 10000 --dcfg "$tmp/g.dcfg.json" "$out" | tr ' ' '\n' | awk -F: 'NF >= 3 { s += $NF } END { print s }')
    folded=$("$TRACEKIT" convert --to folded --dcfg "$tmp/g.dcfg.json" "$out" | awk '{ s += $NF } END { print s }')
    if [ "$want" != "$cg" ] || [ "$want" != "$bbv" ] || [ "$want" != "$folded" ]; then
        echo "seed $seed: instructions: INSTR_COUNT $want, callgrind $cg, bbv $bbv, folded $folded"; fail=1
    fi
    echo "seed $seed: instructions $want (callgrind $cg, bbv $bbv, folded $folded); $(wc -l <"$tmp/g.edges") edges, sizes: $(for l in 0 1 5 7 9 intel; do printf '%s=%s ' $l $(wc -c <"$tmp/t.$l.trace.json"); done)"
done
exit $fail
