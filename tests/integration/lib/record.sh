# Shared by tests/integration/record_*.sh (sourced from the repository's top).
#   record_setup        skip (exit 77) unless valgrind, callgrind_annotate, cc,
#                       python3 and tkrecord (make builds it) are there; makes
#                       $tmp (removed at exit) and points TMPDIR at $tmp/tmp, so
#                       that the test can check that no temporary file is left
#   record_run ARGS...  tracekit ARGS with the environment record_callgrind gives
#                       callgrind (bash's $_ removed: it names the program run)
#   record_callgrind OUT ARGS...   callgrind on a program the way tracekit record
#                       runs it: the same length of VALGRIND_LIB and TMPDIR in its
#                       environment (ld.so and libc read it), stdout to /dev/null
#   record_no_leftovers  no tracekit-record.* folder left in $TMPDIR
# RECORD_CHECK runs record_check.py (python -S: the standard library only, no site
# packages to import at each start)
TRACEKIT=${TRACEKIT:-build/tracekit}
RECORD_CHECK="python3 -S tests/integration/lib/record_check.py"

record_setup() {
    for tool in valgrind callgrind_annotate cc python3; do
        command -v "$tool" >/dev/null || { echo "$tool not installed"; exit 77; }
    done
    [ -x "$(dirname "$TRACEKIT")/recorder/tkrecord-amd64-linux" ] ||
        { echo "tkrecord not built (needs valgrind's headers and archives)"; exit 77; }
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    mkdir "$tmp/tmp"
    export TMPDIR=$tmp/tmp
    vglib=/usr/libexec/valgrind
    [ -f "$vglib/vgpreload_core-amd64-linux.so" ] ||
        vglib=$(dirname "$(readlink -f "$(command -v valgrind)")")/../libexec/valgrind
    # a VALGRIND_LIB as long as the one of tracekit record (tracekit-record.XXXXXX/lib)
    cglib=$tmp/tmq/tracekit-record.cgcgcg/lib
    mkdir -p "$cglib"
    ln -s "$vglib"/* "$cglib"/
}

record_run() {
    env -u _ TMPDIR="$TMPDIR" "$TRACEKIT" "$@"
}

record_callgrind() {
    local out=$1
    shift
    env -u _ TMPDIR="$tmp/tmq" VALGRIND_LIB="$cglib" valgrind -q --tool=callgrind \
        --callgrind-out-file="$out" --skip-plt=no --show-below-main=yes --collect-jumps=yes \
        --dump-instr=yes "$@" >/dev/null 2>"$out.err"
    [ -s "$out" ]
}

record_no_leftovers() {
    local left
    left=$(ls -A "$TMPDIR")
    [ -z "$left" ] || { echo "left behind in TMPDIR: $left"; return 1; }
}
