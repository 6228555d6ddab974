#!/bin/bash
# tracekit-mpi when things go wrong (issue 28): a rank that cannot read its file (the path and
# the error, as tracekit says it, exit 1, no output file); a rank killed mid-run and a rank
# stuck past TRACEKIT_MPI_TIMEOUT: the job ends with a failure, no output file, no process left.
set -uo pipefail
T=$(mktemp -d)
pids=""
cleanup() {
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$T"
}
trap cleanup EXIT
. tests/integration/lib/mpi.sh
D=tests/data/xray/pass
for np in 2 3; do
    same_as_tracekit "a missing file" $np report $D/mtpool.fdr "$T/missing.fdr" $D/calltree.fdr \
        -o "$T/out.txt"
    same_as_tracekit "a damaged file" $np report $D/mtpool.fdr $D/calltree.fdr \
        tests/data/xray/fail/truncated-record.fdr -o "$T/out.txt"
    same_as_tracekit "not a trace" $np report $D/mtpool.fdr $D/calltree.fdr README.md
done

# the ranks of the job started in the background: "PID RANK" lines
ranks_of() {
    local p
    for p in $(pgrep -f "tracekit-mpi report .*$T/fifo"); do
        tr '\0' '\n' </proc/$p/environ 2>/dev/null | sed -n "s/^OMPI_COMM_WORLD_RANK=/$p /p"
    done
}
# start_job ENV...: tracekit-mpi on 2 ranks, rank 1 blocked opening a FIFO nobody writes
start_job() {
    rm -f "$T/fifo" "$T/out.txt"
    mkfifo "$T/fifo"
    env "$@" timeout 120 mpirun --oversubscribe --allow-run-as-root -np 2 "$TKMPI" report \
        $D/mtpool.fdr "$T/fifo" -o "$T/out.txt" >"$T/job.out" 2>"$T/job.err" &
    job=$!
    pids="$pids $job"
    for _ in $(seq 100); do [ "$(ranks_of | wc -l)" = 2 ] && break; sleep 0.1; done
    ranks=$(ranks_of)
    pids="$pids $(echo "$ranks" | cut -d' ' -f1)"
}
# job_failed NAME SECONDS: the job ended within SECONDS, failing, without output or processes
job_failed() {
    local name=$1 limit=$2 t0=$SECONDS
    while kill -0 $job 2>/dev/null && [ $((SECONDS - t0)) -lt $limit ]; do sleep 0.2; done
    if kill -0 $job 2>/dev/null; then
        echo "FAIL: $name: the job still runs after $limit s"
        mpi_fail=1
        return
    fi
    wait $job
    local rc=$?
    if [ $rc = 0 ] || [ $rc = 124 ] || [ -e "$T/out.txt" ] || ls "$T" | grep -q 'out.txt.tmp'; then
        echo "FAIL: $name: exit $rc (124: killed by the test's timeout) or an output file"
        mpi_fail=1
    fi
    if [ -n "$(ranks_of)" ]; then
        echo "FAIL: $name: ranks left running"
        mpi_fail=1
    fi
}
start_job
if [ "$(echo "$ranks" | wc -l)" != 2 ]; then
    echo "FAIL: the job's 2 ranks did not start"
    mpi_fail=1
else
    kill -9 "$(echo "$ranks" | awk '$2 == 1 { print $1 }')"
    job_failed "rank 1 killed" 30
fi
start_job TRACEKIT_MPI_TIMEOUT=3
job_failed "rank 1 stuck, timeout 3 s" 30
if ! grep -q "rank 1: error: not done after 3 s" "$T/job.err"; then
    echo "FAIL: the stuck rank did not say it timed out:"
    head -5 "$T/job.err"
    mpi_fail=1
fi
[ $mpi_fail = 0 ] && echo "mpi_failures: ok"
exit $mpi_fail
