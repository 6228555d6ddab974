#!/usr/bin/env bash
# Regenerates generated-200.PT: 200 random CFGs (bench/csi_gen.py, seed 5)
# numbered by `tracekit convert --to csi --renumber`.
set -eu
cd "$(dirname "$0")/../../../.."
python3 bench/csi_gen.py 200 5 > /tmp/csi-gen-200.txt
"${TRACEKIT:-build/tracekit}" convert --to csi --renumber --force -o tests/data/csi/pass/generated-200.PT /tmp/csi-gen-200.txt
rm -f /tmp/csi-gen-200.txt
