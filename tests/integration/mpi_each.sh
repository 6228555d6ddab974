#!/bin/bash
# tracekit-mpi on commands that treat each input on its own (issue 28): DCFG report, check and
# dump, XRay check and dump; each rank runs the command over its inputs, rank 0 prints every
# rank's output and errors in order: the same bytes as tracekit on 1, 2, 3 and 5 ranks, also
# when an input fails (check goes on; report and dump stop there, rank 0 then runs alone).
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/integration/lib/mpi.sh
D=tests/data/dcfg/pass
F=tests/data/dcfg/fail
dcfgs=($D/*.dcfg.json)
X=tests/data/xray/pass
for np in 1 2 3 5; do
    same_as_tracekit "dcfg report" $np report "${dcfgs[@]}" "${dcfgs[@]}"
    same_as_tracekit "dcfg report json" $np report --format json --top 0 "${dcfgs[@]}"
    same_as_tracekit "dcfg check with failures" $np check "${dcfgs[@]}" $F/*.json
    same_as_tracekit "xray check" $np check $X/mtpool.fdr $X/calltree.basic \
        tests/data/xray/fail/truncated-record.fdr $X/mtpool-wrapped.fdr
done
same_as_tracekit "dcfg report stopping at a damaged file" 3 report "${dcfgs[@]}" \
    $F/dangling-edge.dcfg.json "${dcfgs[@]}"
same_as_tracekit "dcfg dump" 2 dump "${dcfgs[@]:0:3}"
same_as_tracekit "xray dump" 3 dump $X/calltree.fdr $X/mtpool.basic $X/calltree.basic
[ $mpi_fail = 0 ] && echo "mpi_each: ok"
exit $mpi_fail
