#!/usr/bin/env bash
# `tracekit record --wet` when things go wrong, and beyond its memory bound:
# usage errors (exit 2, nothing run); --wet-history without N (100,000); an output that exists stays as it is;
# a program that crashes (SIGSEGV: both forms written up to the fault and
# accepted by check, the summary says incomplete, exit 139); a program killed
# by SIGKILL from outside (one line, nothing written, exit 137); a
# comprehensive trace beyond --wet-memory (spill files, the same checks as
# without: check, instances equal to the DCFG's block counts). No temporary
# file is left behind in any case.
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/record.sh
record_setup
fail=0
TK=$(cd "$(dirname "$TRACEKIT")" && pwd)/$(basename "$TRACEKIT")
out=$tmp/out
cat >"$tmp/crash.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    volatile int x = 5, *p = NULL;
    if (argc > 2 && !strcmp(argv[1], "segv")) x += *p;
    if (argc > 2 && !strcmp(argv[1], "wait")) {
        FILE *f = fopen(argv[2], "w");
        fprintf(f, "%d\n", getpid());
        fclose(f);
        for (;;) pause();
    }
    return x;
}
C
cat >"$tmp/work.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    long n = 30000;
    unsigned *a = malloc(n * sizeof *a), x = 1;
    for (long i = 0; i < n; i++) { x = x * 1103515245u + 12345u; a[i] = x >> 8; }
    unsigned long s = 0;
    for (int r = 0; r < 3; r++)
        for (long i = 1; i < n; i++) { a[i] ^= a[i - 1] >> 3; s += a[i] & 0xff; }
    printf("%lu\n", s);
    return 0;
}
C
cc -g -O0 -o "$tmp/crash" "$tmp/crash.c" && cc -g -O1 -o "$tmp/work" "$tmp/work.c" || exit 1

# name | exit status | pattern of tracekit's line | arguments of record
while IFS='|' read -r name status pattern args; do
    # shellcheck disable=SC2086
    record_refused "$name" "$status" "$pattern" "$TK" record $args -o "$out" -- "$tmp/crash" ||
        fail=1
done <<'EOF2'
children|2|one process: no --trace-children|--wet --trace-children
history 0|2|--wet-history must be 1..|--wet-history 0
history =0|2|--wet-history must be 1..|--wet-history=0
history x|2|needs a non-negative integer, not 'x'|--wet-history=x
memory too small|2|--wet-memory must be|--wet --wet-memory 0
memory alone|2|go with --wet or --wet-history|--wet-memory 64
dcfg alone|2|go with --wet or --wet-history|--dcfg
EOF2

# an output that exists stays as it is without --force (and the others are not written)
record_keeps "$out.wet-history" "$TK" record -q --wet --wet-history 10 -o "$out" -- "$tmp/crash" ||
    fail=1
[ ! -e "$out.wet" ] || { echo "existing output: $out.wet written"; fail=1; }
rm -f "$out".*

# a crash: what ran up to the fault, in both forms
"$TK" record --wet --wet-history 1000 -o "$out" -- "$tmp/crash" segv x >/dev/null 2>"$tmp/stderr"
rc=$?
{ [ $rc = 139 ] && grep -q "incomplete" "$tmp/stderr"; } ||
    { echo "SIGSEGV: exit $rc, $(cat "$tmp/stderr")"; fail=1; }
for f in "$out.wet" "$out.wet-history"; do
    "$TK" check "$f" 2>&1 | grep -q ": 0 errors, 0 warnings" || { echo "SIGSEGV: $f does not check"; fail=1; }
done
record_no_leftovers || fail=1
rm -f "$out".*

# killed by SIGKILL from outside: Valgrind writes nothing
record_killed "$tmp/pid" "$TK" record --wet --wet-history 10 -o "$out" -- "$tmp/crash" wait \
    "$tmp/pid" || fail=1

# beyond the memory bound: the comprehensive form spills, and is the same trace; with it
# --wet-history without N: the default, the last 100,000 dependences
record_run record --wet --dcfg --wet-memory 16 --wet-history -o "$out" -- "$tmp/work" \
    >/dev/null 2>"$tmp/stderr" || { echo "spills: record failed: $(cat "$tmp/stderr")"; fail=1; }
[ "$(wc -l <"$out.wet-history")" = 100000 ] ||
    { echo "--wet-history without N: $(wc -l <"$out.wet-history") lines, not 100000"; fail=1; }
grep -q "spill files" "$tmp/stderr" || { echo "spills: none: $(cat "$tmp/stderr")"; fail=1; }
"$TK" check "$out.wet" 2>&1 | grep -q ": 0 errors, 0 warnings" || { echo "spills: the trace does not check"; fail=1; }
$RECORD_CHECK wetcounts "$out.dcfg.json" "$out.wet" | sed 's/^/spills: /' || fail=1
record_no_leftovers || fail=1
exit $fail
