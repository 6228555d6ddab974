#!/bin/bash
# tracekit-mpi on Callgrind profiles (issue 28): report with each rank's summary partial
# (read on its -j threads) reduced along the tree in input order, merge with each rank's
# profiles sent as callgrind text; the same bytes as tracekit on 1, 2, 3 and 5 ranks, also
# when a file fails (the root then reads them all to say what tracekit says) and with the
# reader's warnings of the ranks' files. One MPI job per number of ranks runs every command
# (tests/mpi/batch.c).
set -uo pipefail
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/integration/lib/mpi.sh
D=tests/data/callgrind/pass
threads=($D/threads-sep.out-01 $D/threads-sep.out-02 $D/threads-sep.out-03 $D/threads-sep.out)
demo=($D/demo-every.out $D/demo-every.out.1 $D/demo-default.out $D/demo-instr.out)
batch "report" report "${threads[@]}"
TRACEKIT_MPI_FANIN=2 batch "report json inclusive tree, fan-in 2" \
    report --format json --inclusive --tree both "${threads[@]}" "${threads[@]}"
batch "report by line, csv" report --by line --format csv "${demo[@]}"
batch "report by file-function, -j 1" report -j 1 --by file-function --inclusive \
    "${demo[@]}" $D/mutual.out
batch "report --focus" report --focus is_even --tree both $D/mutual.out $D/mutual-recs.out
batch "report --part" report --part 3 "${threads[@]}"
batch "merge" merge "${demo[@]}" -o "$T/merged.out"
batch "merge --keep-parts" merge --keep-parts "${threads[@]}"
batch "report --cycles" report --cycles $D/mutual.out $D/mutual-recs.out $D/mutual.out
# every profile of the corpus: events that differ between files are an error (at the file
# that brings them), whichever rank has it
batch "report of every profile" report $D/*.out
batch "merge of every profile" merge $D/*.out
# warnings of the reader (a summary the cost lines fall short of) in the ranks' files
for f in tests/data/callgrind/fail/*; do
    if "$TK" report "$f" 2>&1 >/dev/null | grep -q warning; then
        batch "report with warnings" report --format json "${threads[@]:0:2}" "$f" \
            "${threads[@]:0:2}" "$f"
        break
    fi
done
batch "a damaged file" report "${threads[@]}" tests/data/callgrind/fail/$(
    ls tests/data/callgrind/fail | head -1) "${threads[@]}"
batch_run 1 2 3 5
[ $mpi_fail = 0 ] && echo "mpi_callgrind: ok"
exit $mpi_fail
