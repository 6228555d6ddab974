#!/usr/bin/env bash
# DCFG benchmark: `tracekit report` on a generated DCFG of ~1 M blocks and
# ~1.1 M edges with routines, dominators and loops (~110 MB JSON), against
# Python's json.load of the same file (the usual way DCFGs are consumed), then
# the same from the .bz2 SDE writes. Goal: >= 50x faster than json.load,
# peak RSS < 1/10 of it, >= 500 MB/s of JSON.
# The input is generated once into $BENCH_DATA (default build/bench-data).
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
DATA=${BENCH_DATA:-build/bench-data}
ROUTINES=${DCFG_BENCH_ROUTINES:-37000}
F=$DATA/dcfg-$ROUTINES.dcfg.json
mkdir -p "$DATA"
if [ ! -s "$F" ]; then
    echo "generating $F (once; about a minute)"
    python3 tests/data/dcfg/gen_dcfg.py --seed 7 --routines "$ROUTINES" --threads 2 --steps 200000 \
        --seq 12 --p-if 0.04 --p-loop 0.06 --p-call 0.02 >"$F.tmp" && mv "$F.tmp" "$F" || exit 1
fi
[ -s "$F.bz2" ] || bzip2 -k -9 "$F" || exit 1
"$TRACEKIT" info "$F" | tail -1
bytes=$(stat -c %s "$F")
echo "input: $bytes bytes JSON, $(stat -c %s "$F.bz2") bytes bz2"
bench_compare dcfg-report "'$TRACEKIT' report --top 20 '$F'" "python3 -c 'import json; json.load(open(\"$F\"))'"
run_timed dcfg-report-again "'$TRACEKIT' report --top 20 '$F'" && bench_throughput dcfg-report "$bytes" "$T_SEC"
run_timed dcfg-info "'$TRACEKIT' info '$F'" && bench_throughput dcfg-info "$bytes" "$T_SEC"
bench_compare dcfg-report-bz2 "'$TRACEKIT' report --top 20 '$F.bz2'" \
    "python3 -c 'import bz2, json; json.load(bz2.open(\"$F.bz2\"))'"
