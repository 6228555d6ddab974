# What the tracekit-mpi scripts share (sourced): the programs, mpirun as these tests run it,
# and the comparison of tracekit-mpi's output with tracekit's.
BUILD=${BUILD:-build}
TK=$BUILD/tracekit
TKMPI=$BUILD/tracekit-mpi
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
    echo "no mpicc or mpirun (scripts/setup-deps.sh installs Open MPI)"
    exit 77
fi
[ -x "$TKMPI" ] || { echo "FAIL: mpicc is there but $TKMPI was not built"; exit 1; }
# as root, on 2 cores: more ranks than cores, and no hang if a rank never ends
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi_run() { # NP ARGS...: tracekit-mpi on NP ranks
    local np=$1
    shift
    timeout 120 mpirun --oversubscribe --allow-run-as-root -np "$np" "$TKMPI" "$@"
}
mpi_fail=0
# same_as_tracekit NAME NP ARGS...: stdout, stderr and the exit status of tracekit-mpi on NP
# ranks equal tracekit's (an -o OUT in ARGS: OUT's bytes, or that there is none, too); both
# read standard input from $STDIN (default /dev/null)
same_as_tracekit() {
    local name=$1 np=$2 out="" a
    shift 2
    local prev=""
    for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
    rm -f "$out"
    "$TK" "$@" <"${STDIN:-/dev/null}" >"$T/one.out" 2>"$T/one.err"
    local rc1=$?
    rm -f "$T/one.file"
    [ -n "$out" ] && [ -e "$out" ] && mv "$out" "$T/one.file"
    mpi_run "$np" "$@" <"${STDIN:-/dev/null}" >"$T/mpi.out" 2>"$T/mpi.err"
    local rc2=$?
    # what mpirun adds on a failing exit status
    sed -i '/^-----*$/,/^-----*$/d; /^\(Primary job\|mpirun\|Per user-direction\)/d' "$T/mpi.err"
    local files=same
    if [ -n "$out" ]; then
        if [ -e "$T/one.file" ] && [ -e "$out" ]; then
            cmp -s "$T/one.file" "$out" || files=differ
        elif [ -e "$T/one.file" ] || [ -e "$out" ]; then
            files=differ
        fi
    fi
    if [ $rc1 != $rc2 ] || ! cmp -s "$T/one.out" "$T/mpi.out" ||
        ! cmp -s "$T/one.err" "$T/mpi.err" ||
        [ $files != same ]; then
        echo "FAIL: $name -np $np: exit $rc1 and $rc2, or the output differs"
        diff "$T/one.err" "$T/mpi.err" | head -5
        diff "$T/one.out" "$T/mpi.out" | head -5
        mpi_fail=1
    fi
    [ -n "$out" ] && rm -f "$out"
    return 0
}
