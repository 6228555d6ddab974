#!/bin/bash
# DCFG merge of runs that took other paths (issue 28): the union of their graphs. A program
# whose branches depend on its arguments, recorded by tracekit record on three inputs, and
# the corpus's two SDE files of one program (whole.log_0 and region.log_0, whose block at
# 0x5d3 is two blocks in the region file) are merged: tracekit check accepts the result with
# no error, each block's count is the sum of the counts of the inputs' blocks that hold it
# (a block one run cut in two counts for both pieces), each thread's instructions the sum of
# the inputs', and tracekit-mpi writes the same bytes on 1, 2, 3 and 5 ranks (fan-in 8 and 2,
# -j 1 and 4), as tracekit does with -j 1 and -j 4.
set -uo pipefail
. tests/integration/lib/record.sh
record_setup
T=$tmp
. tests/integration/lib/mpi.sh
fail=0
cat >"$T/branch.c" <<'C'
#include <stdio.h>
#include <string.h>
__attribute__((noinline)) static long work(int n, int odd) {
    long s = 0;
    for (int i = 0; i < n; i++) {
        if (odd) s += i * 3;
        s ^= i;
    }
    return s;
}
int main(int argc, char **argv) {
    int n = argc > 1 ? (int)strlen(argv[1]) * 10 : 5;
    long s = work(n, argc > 2);
    if (argc > 1)
        printf("long %ld\n", s);
    else
        puts("short");
    return 0;
}
C
cc -O1 -g -o "$T/branch" "$T/branch.c" || { echo "FAIL: cc"; exit 1; }
record_run record -o "$T/r1" -- "$T/branch" >/dev/null 2>&1 &&
    record_run record -o "$T/r2" -- "$T/branch" hello x >/dev/null 2>&1 &&
    record_run record -o "$T/r3" -- "$T/branch" hi >/dev/null 2>&1 ||
    { echo "FAIL: tracekit record"; exit 1; }
runs=("$T/r1.dcfg.json" "$T/r2.dcfg.json" "$T/r3.dcfg.json")
C=tests/data/corpus/dcfg-thirdparty/passlab-DCFG
sde=($C/whole.log_0.dcfg.json.bz2 $C/region.log_0.dcfg.json.bz2)

# sums OUT IN...: OUT's blocks count what the inputs' blocks that hold them count, its
# threads' instructions theirs
sums() {
    python3 -S - "$@" <<'PY'
import bz2, json, sys
def load(path):
    raw = open(path, 'rb').read()
    d = json.loads(bz2.decompress(raw) if raw[:3] == b'BZh' else raw)
    names = {i: n for i, n in d["FILE_NAMES"][1:]}
    procs = []
    for pid, pd in d["PROCESSES"][1:]:
        images = {}
        for iid, la, size, data in pd["IMAGES"][1:]:
            key = (names.get(data.get("FILE_NAME_ID"), ""), size)
            images[key] = [(int(r[1], 16), r[2], r[5]) for r in data.get("BASIC_BLOCKS", [])[1:]]
        procs.append((images, pd.get("INSTR_COUNT_PER_THREAD")))
    return procs
out, ins = load(sys.argv[1]), [load(f) for f in sys.argv[2:]]
bad = blocks = 0
for p, (images, per_thread) in enumerate(out):
    for key, rows in images.items():
        for off, size, count in rows:
            blocks += 1
            want = sum(c for i in ins for o, s, c in i[p][0].get(key, [])
                       if o <= off and off + size <= o + s)
            if want != count:
                bad += 1
                print("block %s+0x%x: %d, the inputs %d" % (key[0], off, count, want))
    want = [0] * max(len(i[p][1] or []) for i in ins)
    for i in ins:
        for t, v in enumerate(i[p][1] or []): want[t] += v
    if per_thread != want:
        bad += 1
        print("INSTR_COUNT_PER_THREAD %s, the inputs %s" % (per_thread, want))
sys.exit(1 if bad or not blocks else 0)
PY
}

for set in runs sde; do
    declare -n in=$set
    "$TK" merge -o "$T/$set.dcfg.json" "${in[@]}" || { echo "FAIL: merge of $set"; fail=1; }
    "$TK" check "$T/$set.dcfg.json" >"$T/check.out" 2>&1 ||
        { echo "FAIL: check of the merged $set"; cat "$T/check.out"; fail=1; }
    sums "$T/$set.dcfg.json" "${in[@]}" || { echo "FAIL: the counts of the merged $set"; fail=1; }
    "$TK" merge -j 1 "${in[@]}" "${in[@]}" >"$T/j1" && "$TK" merge -j 4 "${in[@]}" "${in[@]}" >"$T/j4" &&
        cmp -s "$T/j1" "$T/j4" || { echo "FAIL: merge -j 1 and -j 4 of $set differ"; fail=1; }
    unset -n in
done
# the runs are three: one of them not a block of the others' union of two
grep -q '"0x' "$T/runs.dcfg.json" && ! cmp -s "$T/runs.dcfg.json" "${runs[0]}" ||
    { echo "FAIL: the merged runs are the first run"; fail=1; }

batch "merge of recorded runs" merge -o "$T/u.dcfg.json" "${runs[@]}" "${runs[@]:1}"
TRACEKIT_MPI_FANIN=2 batch "merge of recorded runs, fan-in 2, -j 1" merge -j 1 "${runs[@]}" \
    "${runs[@]}" "${runs[0]}"
batch "merge of SDE's whole and region" merge -j 4 "${sde[@]}" "${sde[@]}" "${sde[0]}"
TRACEKIT_MPI_FANIN=2 batch "merge of SDE's region and whole" merge "${sde[1]}" "${sde[0]}"
batch_run 1 2 3 5
[ $fail = 0 ] && [ $mpi_fail = 0 ] && echo "mpi_dcfg_union: ok"
[ $fail = 0 ] && exit $mpi_fail
exit 1
