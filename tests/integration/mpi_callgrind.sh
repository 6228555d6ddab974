#!/bin/bash
# tracekit-mpi on Callgrind profiles (issue 28): report and merge with each rank's profiles
# read into one profile, sent as callgrind text and merged along the tree in input order; the
# same bytes as tracekit on 1, 2, 3 and 5 ranks, also when a file fails (the root then reads
# them all to say what tracekit says) and with the reader's warnings of the ranks' files.
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/integration/lib/mpi.sh
D=tests/data/callgrind/pass
threads=($D/threads-sep.out-01 $D/threads-sep.out-02 $D/threads-sep.out-03 $D/threads-sep.out)
demo=($D/demo-every.out $D/demo-every.out.1 $D/demo-default.out $D/demo-instr.out)
for np in 1 2 3 5; do
    same_as_tracekit "report" $np report "${threads[@]}"
    TRACEKIT_MPI_FANIN=2 same_as_tracekit "report json inclusive tree, fan-in 2" $np \
        report --format json --inclusive --tree both "${threads[@]}" "${threads[@]}"
    same_as_tracekit "report by line, csv" $np report --by line --format csv "${demo[@]}"
    same_as_tracekit "merge" $np merge "${demo[@]}" -o "$T/merged.out"
done
same_as_tracekit "merge --keep-parts" 3 merge --keep-parts "${threads[@]}"
same_as_tracekit "report --cycles" 2 report --cycles $D/mutual.out $D/mutual-recs.out \
    $D/mutual.out
# every profile of the corpus: events that differ between files are an error (at the file
# that brings them), whichever rank has it
same_as_tracekit "report of every profile" 5 report $D/*.out
# warnings of the reader (a summary the cost lines fall short of) in the ranks' files
for f in tests/data/callgrind/fail/*; do
    if "$TK" report "$f" 2>&1 >/dev/null | grep -q warning; then
        same_as_tracekit "report with warnings" 3 report --format json "${threads[@]:0:2}" "$f" \
            "${threads[@]:0:2}" "$f"
        break
    fi
done
same_as_tracekit "a damaged file" 3 report "${threads[@]}" tests/data/callgrind/fail/$(
    ls tests/data/callgrind/fail | head -1) "${threads[@]}"
[ $mpi_fail = 0 ] && echo "mpi_callgrind: ok"
exit $mpi_fail
