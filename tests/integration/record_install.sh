#!/usr/bin/env bash
# `make install` puts tkrecord next to the library (LIBDIR/tracekit), where the
# installed tracekit finds it (the build tree's tracekit finds it in
# build/recorder: the other record_*.sh); `make uninstall` removes it.
# Runs for the plain gcc build only (the install target builds with its flags).
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/record.sh
B=${BUILD:-build}
[ "$(basename "$B")" = build ] || { echo "only for the plain build"; exit 77; }
record_setup
make -s install BUILD=build PREFIX="$tmp/prefix" >"$tmp/install.log" 2>&1 ||
    { echo "FAIL: make install"; cat "$tmp/install.log"; exit 1; }
[ -x "$tmp/prefix/lib/tracekit/tkrecord-amd64-linux" ] || { echo "FAIL: tkrecord not installed"; exit 1; }
printf 'int main(void) { return 4; }\n' >"$tmp/t.c"
cc -o "$tmp/t" "$tmp/t.c" || exit 1
"$tmp/prefix/bin/tracekit" record -q -o "$tmp/t" -- "$tmp/t"
rc=$?
[ $rc = 4 ] || { echo "FAIL: the installed tracekit record exited $rc"; exit 1; }
"$tmp/prefix/bin/tracekit" check "$tmp/t.dcfg.json" >/dev/null 2>&1 || { echo "FAIL: check"; exit 1; }
make -s uninstall BUILD=build PREFIX="$tmp/prefix" >/dev/null 2>&1
[ ! -e "$tmp/prefix/lib/tracekit" ] || { echo "FAIL: make uninstall left $tmp/prefix/lib/tracekit"; exit 1; }
record_no_leftovers || exit 1
echo "record install: the installed tracekit finds the installed tkrecord"
