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

# ---- many commands in one MPI job (tests/mpi/batch.c) --------------------------------------
# batch NAME ARGS...: a command for batch_run (the fan-in and standard input from
# TRACEKIT_MPI_FANIN and STDIN, as same_as_tracekit reads them). An -o FILE in ARGS becomes
# a file of the command's own, the same path for tracekit and tracekit-mpi.
# batch_run NP...: tracekit runs every command, then one job on each NP ranks runs them all
# (build/tests/mpi_batch), and each command's stdout, stderr, exit status and -o file must be
# tracekit's (every file written beside it too: the OUT-01, OUT-02, ... of a profile per
# thread; none when tracekit writes none).
MPI_BATCH=$BUILD/tests/mpi_batch
[ -x "$MPI_BATCH" ] || { echo "FAIL: $MPI_BATCH was not built (make test-binaries)"; exit 1; }
batch_names=() batch_lines=() batch_outs=()
batch() {
    local name=$1 k=$((${#batch_names[@]} + 1)) line prev="" a out=""
    shift
    line="${TRACEKIT_MPI_FANIN:--}"$'\t'"${STDIN:--}"
    for a in "$@"; do
        if [ "$prev" = -o ]; then
            mkdir -p "$T/o.$k"
            out="$T/o.$k/$(basename "$a")"
            a=$out
        fi
        line="$line"$'\t'"$a"
        prev=$a
    done
    batch_names+=("$name") batch_lines+=("$line") batch_outs+=("$out")
}
batch_run() {
    local k n=${#batch_names[@]} np line out
    local -a words
    for ((k = 1; k <= n; k++)); do
        line=${batch_lines[k - 1]} out=${batch_outs[k - 1]}
        IFS=$'\t' read -r -a words <<<"$line"
        local in=${words[1]}
        [ "$in" = - ] && in=/dev/null
        [ -n "$out" ] && rm -rf "${out%/*}" && mkdir -p "${out%/*}"
        "$TK" "${words[@]:2}" <"$in" >"$T/one.$k.out" 2>"$T/one.$k.err"
        echo $? >"$T/one.$k.rc"
        rm -rf "$T/one.$k.files"
        [ -n "$out" ] && mv "${out%/*}" "$T/one.$k.files" && mkdir -p "${out%/*}"
    done
    printf '%s\n' "${batch_lines[@]}" >"$T/batch.list"
    for np in "$@"; do
        rm -rf "$T/mpi.$np" && mkdir "$T/mpi.$np"
        timeout 300 mpirun --oversubscribe --allow-run-as-root -np "$np" "$MPI_BATCH" \
            "$T/batch.list" "$T/mpi.$np" >"$T/mpi.$np.log" 2>&1 ||
            { echo "FAIL: the batch on $np ranks failed:"; tail -5 "$T/mpi.$np.log"; mpi_fail=1; }
        for ((k = 1; k <= n; k++)); do
            local d=$T/mpi.$np/$k files=same
            out=${batch_outs[k - 1]}
            if [ -n "$out" ]; then
                diff -r "$T/one.$k.files" "${out%/*}" >/dev/null 2>&1 || files=differ
                rm -rf "${out%/*}" && mkdir -p "${out%/*}"
            fi
            if ! cmp -s "$T/one.$k.rc" "$d.rc" || ! cmp -s "$T/one.$k.out" "$d.out" ||
                ! cmp -s "$T/one.$k.err" "$d.err" || [ $files != same ]; then
                echo "FAIL: ${batch_names[k - 1]} -np $np: exit $(cat "$T/one.$k.rc") and" \
                    "$(cat "$d.rc" 2>/dev/null), or the output differs"
                diff "$T/one.$k.err" "$d.err" 2>&1 | head -5
                diff "$T/one.$k.out" "$d.out" 2>&1 | head -5
                mpi_fail=1
            fi
        done
    done
    return 0
}
