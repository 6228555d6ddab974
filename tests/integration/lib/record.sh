# Shared by tests/integration/record_*.sh (sourced from the repository's top).
#   record_setup        skip (exit 77) unless valgrind, callgrind_annotate, cc,
#                       python3 and tkrecord (make builds it) are there; makes
#                       $tmp (removed at exit) and points TMPDIR at $tmp/tmp, so
#                       that the test can check that no temporary file is left
#   record_run ARGS...  tracekit ARGS with the environment record_callgrind gives
#                       callgrind (bash's $_ removed: it names the program run)
#   record_callgrind OUT ARGS...   callgrind on a program the way tracekit record
#                       runs it: the same length of VALGRIND_LIB and TMPDIR in its
#                       environment (ld.so and libc read it), stdout to /dev/null (OUT
#                       ending in %p: a file per process, OUT with the pid for %p)
#   record_no_leftovers  no tracekit-record.* folder left in $TMPDIR
#   record_refused NAME STATUS PATTERN CMD...   CMD (tracekit record ...) exits STATUS
#                       with one line of tracekit's matching PATTERN on stderr, writes
#                       no $out.* and leaves nothing in $TMPDIR
#   record_killed PIDFILE CMD...   CMD records a program that writes its pid to PIDFILE
#                       and waits: killed by SIGKILL from outside, tracekit says so in
#                       one line, writes no $out.*, exits 137, leaves nothing behind
#   record_keeps FILE CMD...   FILE exists: CMD (an output of which is FILE) exits 2 with
#                       "exists", FILE is as it was
# Each prints what went wrong and returns 1 (the caller sets fail=1).
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
    case $out in
    *%p) ls "${out%\%p}"[0-9]* >/dev/null 2>&1 ;; # a file per process (--trace-children=yes)
    *) [ -s "$out" ] ;;
    esac
}

record_no_leftovers() {
    local left
    left=$(ls -A "$TMPDIR")
    [ -z "$left" ] || { echo "left behind in TMPDIR: $left"; return 1; }
}

record_refused() {
    local name=$1 status=$2 pattern=$3 rc lines
    shift 3
    rm -f "$out".*
    "$@" >/dev/null 2>"$tmp/stderr"
    rc=$?
    lines=$(grep -c '^tracekit' "$tmp/stderr")
    if [ $rc != "$status" ] || [ "$lines" != 1 ] || ! grep -q -e "$pattern" "$tmp/stderr"; then
        echo "$name: exit $rc (expected $status), stderr:"
        cat "$tmp/stderr"
        return 1
    fi
    if ls "$out".* >/dev/null 2>&1; then echo "$name: an output was written: $(ls "$out".*)"; return 1; fi
    record_no_leftovers || { echo "($name)"; return 1; }
}

record_killed() {
    local pidfile=$1 tk rc
    shift
    rm -f "$pidfile" "$out".*
    "$@" >/dev/null 2>"$tmp/stderr" &
    tk=$!
    for _ in $(seq 300); do [ -s "$pidfile" ] && break; sleep 0.1; done
    kill -9 "$(cat "$pidfile")"
    wait $tk
    rc=$?
    { [ $rc = 137 ] && [ "$(grep -c '^tracekit' "$tmp/stderr")" = 1 ] &&
        grep -q "before tkrecord could write" "$tmp/stderr" && ! ls "$out".* >/dev/null 2>&1; } ||
        { echo "SIGKILL: exit $rc, $(cat "$tmp/stderr")"; return 1; }
    record_no_leftovers
}

record_keeps() {
    local file=$1 rc
    shift
    echo keep >"$file"
    "$@" >/dev/null 2>"$tmp/stderr"
    rc=$?
    { [ $rc = 2 ] && grep -q "exists" "$tmp/stderr" && [ "$(cat "$file")" = keep ]; } ||
        { echo "existing $file: exit $rc, $(cat "$tmp/stderr")"; return 1; }
    record_no_leftovers
}
