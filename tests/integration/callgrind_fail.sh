#!/usr/bin/env bash
# Bad input: every file in tests/data/callgrind/fail gives located errors
# ("path:line:col: error: ...") from `check`, exit 1, never a crash; reading
# commands (dump) fail with exit 1 too, except for the totals mismatch, the
# undefined id and a cut part whose cost lines fall short of its summary:, which
# only `check` reports (the others warn), and the sums that only some commands form
# (sum-*: the command given below refuses it; check reports it first). A single
# line of 100 MB is refused with a location.
set -u
cd "$(dirname "$0")/../.."
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for f in tests/data/callgrind/fail/*; do
    n=$((n + 1))
    "$TRACEKIT" check --from callgrind "$f" >/dev/null 2>"$tmp/err"; rc=$?
    if [ $rc != 1 ]; then echo "FAIL check exit $rc: $f"; fail=1; fi
    if ! grep -q "^$f:[0-9]*:[0-9]*: error: " "$tmp/err"; then
        echo "FAIL check gives no located error: $f"; cat "$tmp/err"; fail=1
    fi
    # only `check` reports these: totals that do not match, and ids never defined
    # (read as the name "(id)", like KCachegrind, for old callgrind files)
    case "$f" in *totals-mismatch*|*undefined-id*) continue ;; esac
    case "$f" in
    *cut-summary*)
        "$TRACEKIT" report --from callgrind "$f" >/dev/null 2>"$tmp/err" &&
            grep -q "^tracekit: $f:[0-9]*:[0-9]*: warning: summary: " "$tmp/err" ||
            { echo "FAIL report does not warn of: $f"; cat "$tmp/err"; fail=1; }
        continue ;;
    *sum-call-max*) refuser=(report --inclusive) ;;
    *sum-parts* | *sum-calls*) refuser=(report) ;;
    *sum-summaries*) refuser=(merge) ;;
    *) refuser=() ;;
    esac
    if [ ${#refuser[@]} -gt 0 ]; then
        "$TRACEKIT" "${refuser[@]}" --from callgrind "$f" >/dev/null 2>"$tmp/err"; rc=$?
        if [ $rc != 1 ] || ! grep -q "^tracekit: .*error: " "$tmp/err"; then
            echo "FAIL ${refuser[*]} exit $rc: $f"; cat "$tmp/err"; fail=1
        fi
        continue
    fi
    "$TRACEKIT" dump --from callgrind "$f" >/dev/null 2>"$tmp/err"; rc=$?
    if [ $rc != 1 ] || ! grep -q "^tracekit: $f:[0-9]*:[0-9]*: error: " "$tmp/err"; then
        echo "FAIL dump exit $rc / no located error: $f"; cat "$tmp/err"; fail=1
    fi
done
# one line of 100 MB
{ printf '# callgrind format\nevents: Ir\nfn='; head -c 100000000 /dev/zero | tr '\0' 'a'; printf '\n'; } >"$tmp/long.out"
"$TRACEKIT" dump "$tmp/long.out" >/dev/null 2>"$tmp/err"; rc=$?
if [ $rc != 1 ] || ! grep -q "long.out:3:1: error: line of 100000003 bytes" "$tmp/err"; then
    echo "FAIL 100 MB line: exit $rc"; cat "$tmp/err"; fail=1
fi
echo "$n bad files checked"
exit $fail
