#!/usr/bin/env bash
# `tracekit record` of installed programs (ls, sort, CPython): `check` accepts
# the DCFG and `check --dcfg` the trace (ls and sort: CPython's 20 M
# instructions are recorded without one, for time), every block's count is the sum of
# its in-edges and of its out-edges, the trace decodes to walks from START to
# END with the DCFG's counts, and the instructions are callgrind's totals on
# the same run up to the last superblock (and a few of the string functions
# of the loader, which depend on the addresses; CPython's hashes of addresses),
# and so is each block's count, instruction by instruction (callgrind's
# --dump-instr=yes costs), but for the last one (_exit's `mov %esi,%eax;
# syscall`, which callgrind does not count): the programs are stripped, and
# this compares what a function-by-function oracle cannot.
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/record.sh
record_setup
fail=0
export PYTHONHASHSEED=0
printf 'pear\napple\nfig\nbanana\ncherry\n' >"$tmp/words"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
n=0
while IFS='|' read -r name trace blocks args; do
    out=$tmp/$name
    # shellcheck disable=SC2086
    record_run record -q $trace -o "$out" -- $args >/dev/null 2>"$out.err" ||
        { echo "$name: tracekit record exited $?"; cat "$out.err"; fail=1; continue; }
    n=$((n + 1))
    "$TRACEKIT" check "$out.dcfg.json" >"$out.check" 2>&1 && grep -q ": 0 errors" "$out.check" ||
        { echo "$name: check:"; cat "$out.check"; fail=1; }
    walk=()
    if [ -n "$trace" ]; then
        "$TRACEKIT" check --dcfg "$out.dcfg.json" "$out.trace.json" >"$out.tcheck" 2>&1 &&
            grep -q ": 0 errors, 0 warnings" "$out.tcheck" ||
            { echo "$name: check --dcfg:"; cat "$out.tcheck"; fail=1; }
        "$TRACEKIT" decode --what edges --dcfg "$out.dcfg.json" "$out.trace.json" >"$out.edges" ||
            { echo "$name: decode failed"; fail=1; }
        walk=(-- walk "$out.dcfg.json" "$out.edges")
    fi
    # shellcheck disable=SC2086
    record_callgrind "$out.cg" $args || { echo "$name: callgrind failed"; cat "$out.cg.err"; fail=1; continue; }
    # in one python process: block counts, the trace's walks, the total (CPython
    # hashes addresses, and the addresses Valgrind gives the program depend on
    # the tool's own memory: a little noise of the run itself)
    $RECORD_CHECK counts "$out.dcfg.json" ${walk[@]+"${walk[@]}"} \
        -- total "$out.cg" "$out.dcfg.json" "200+0.01%" \
        -- blocks "$out.cg" "$out.dcfg.json" "$blocks" >"$out.checks" ||
        { echo "$name: block counts, the trace's walks, instruction total:"; cat "$out.checks"
          fail=1; }
    echo "$name: $(sed -n 's/^total: //p' "$out.checks"); $(sed -n 's/^blocks: //p' "$out.checks")"
done <<EOF2
ls|--trace|1|/bin/ls -l $PWD/tests/integration
sort|--trace|1|/usr/bin/sort $tmp/words
python3||1|$py -S -c pass
EOF2
record_no_leftovers || fail=1
[ $n = 3 ] || fail=1
exit $fail
