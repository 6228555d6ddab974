#!/bin/bash
# tracekit-mpi when things go wrong (issue 28): a rank that cannot read its file (the path and
# the error, as tracekit says it, exit 1, no output file: one MPI job per number of ranks runs
# those, tests/mpi/batch.c); a rank killed mid-run and a rank stuck past TRACEKIT_MPI_TIMEOUT:
# the job ends with a failure, no output file, no process left.
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
batch "a missing file" report $D/mtpool.fdr "$T/missing.fdr" $D/calltree.fdr -o "$T/out.txt"
batch "a damaged file" report $D/mtpool.fdr $D/calltree.fdr \
    tests/data/xray/fail/truncated-record.fdr -o "$T/out.txt"
batch "not a trace" report $D/mtpool.fdr $D/calltree.fdr README.md
batch "a missing profile" report tests/data/callgrind/pass/mutual.out "$T/missing.out" \
    tests/data/callgrind/pass/mutual.out -o "$T/out.txt"
batch_run 2 3 5

# the ranks of the job started in the background: "PID RANK" lines
ranks_of() {
    local p
    for p in $(pgrep -f "tracekit-mpi report .*$T/fifo"); do
        tr '\0' '\n' </proc/$p/environ 2>/dev/null | sed -n "s/^OMPI_COMM_WORLD_RANK=/$p /p"
    done
}
# start_job ENV...: tracekit-mpi on 2 ranks, rank 1 blocked opening a FIFO nobody writes; 0
# once it is (ranks: their "PID RANK"), 2 when the job ended before, 1 (a FAIL said) when it
# did not get there within 60 s
start_job() {
    rm -f "$T/fifo" "$T/out.txt"
    mkfifo "$T/fifo"
    env "$@" timeout 120 mpirun --oversubscribe --allow-run-as-root -np 2 "$TKMPI" report \
        $D/mtpool.fdr "$T/fifo" -o "$T/out.txt" >"$T/job.out" 2>"$T/job.err" &
    job=$!
    pids="$pids $job"
    # both ranks there, and rank 1 past MPI_Init, waiting on its input: blocked opening the FIFO
    # (under load MPI_Init alone can take seconds; a rank killed or a clock started before it
    # is through would time MPI's start-up, not the failure)
    local k p1=""
    for k in $(seq 600); do
        ranks=$(ranks_of)
        p1=$(echo "$ranks" | awk '$2 == 1 { print $1 }')
        [ "$(echo "$ranks" | wc -l)" = 2 ] && [ -n "$p1" ] && waits_on_fifo "$p1" && break
        kill -0 $job 2>/dev/null || break
        sleep 0.1
    done
    pids="$pids $(echo "$ranks" | cut -d' ' -f1)"
    [ -n "$p1" ] && waits_on_fifo "$p1" && return 0
    kill -0 $job 2>/dev/null || return 2 # over already (a timeout's alarm before we looked)
    echo "FAIL: start_job $*: rank 1 was not seen waiting on its input within 60 s:"
    echo "$ranks"
    head -5 "$T/job.err"
    mpi_fail=1
    return 1
}
# waits_on_fifo PID: the process sleeps in open(2) of a FIFO (its kernel wait channel, or on
# x86-64 its system call: openat, 257)
waits_on_fifo() {
    [ "$(cat /proc/$1/wchan 2>/dev/null)" = wait_for_partner ] ||
        { [ "$(uname -m)" = x86_64 ] && [ "$(cut -d' ' -f1 /proc/$1/syscall 2>/dev/null)" = 257 ]; }
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
case $? in
0)
    kill -9 "$(echo "$ranks" | awk '$2 == 1 { print $1 }')"
    job_failed "rank 1 killed" 30
    ;;
2)
    echo "FAIL: the job ended before rank 1 was killed:"
    head -5 "$T/job.err"
    mpi_fail=1
    ;;
esac
# the clock starts with rank 1 waiting on its input: its alarm (armed after MPI_Init) is due
# within 3 s of that, or was due before (2: the job is over, and job_failed checks how)
start_job TRACEKIT_MPI_TIMEOUT=3
if [ $? != 1 ]; then
    job_failed "rank 1 stuck, timeout 3 s" 30
    if ! grep -q "rank 1: error: not done after 3 s" "$T/job.err"; then
        echo "FAIL: the stuck rank did not say it timed out:"
        head -5 "$T/job.err"
        mpi_fail=1
    fi
fi
[ $mpi_fail = 0 ] && echo "mpi_failures: ok"
exit $mpi_fail
