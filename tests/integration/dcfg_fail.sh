#!/usr/bin/env bash
# Every file of tests/data/dcfg/fail gives a located error
# (path:line:column: error: ...), exit 1, and no crash, for report and
# check alike; every file of tests/data/dcfg/pass is accepted by check.
set -u
cd "$(dirname "$0")/../.."
T=${TRACEKIT:-build/tracekit}
fail=0
for f in tests/data/dcfg/fail/*; do
    for cmd in report check; do
        err=$("$T" $cmd --from dcfg "$f" 2>&1 >/dev/null)
        rc=$?
        if [ $rc != 1 ]; then echo "$f: $cmd exit $rc, expected 1"; fail=1; fi
        if ! printf '%s\n' "$err" | grep -qE "^(tracekit: )?$f:[0-9]+:[0-9]+: error: "; then
            echo "$f: $cmd: no located error:"; printf '%s\n' "$err" | head -3; fail=1
        fi
    done
done
for f in tests/data/dcfg/pass/*; do
    "$T" check "$f" >/dev/null 2>&1 || { echo "$f: check rejects a pass file"; fail=1; }
done
[ $fail = 0 ] && echo "ok"
exit $fail
