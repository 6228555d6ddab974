#!/usr/bin/env bash
# `tracekit record` on what it cannot record: no such program, not executable,
# a folder, a script without a #! line, a 32-bit or broken ELF program,
# Valgrind, its library folder or tkrecord missing, an output folder it cannot write to, an
# output that exists, a program killed by SIGKILL (nothing Valgrind could
# write), --keep-raw into the raw files of another recording, an output that cannot be written after the run (exit 2, not the
# program's 0). Each: one line from tracekit on stderr, exit status 2 (or the
# program's when it ran), no output file, no temporary file left behind.
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/record.sh
record_setup
fail=0
TK=$(cd "$(dirname "$TRACEKIT")" && pwd)/$(basename "$TRACEKIT")
out=$tmp/out
mkdir "$tmp/empty" "$tmp/folder"
printf 'echo hi\n' >"$tmp/noshebang"
chmod +x "$tmp/noshebang"
printf 'int main(void) { return 0; }\n' >"$tmp/t.c"
cc -o "$tmp/true" "$tmp/t.c" || exit 1
cp "$tmp/true" "$tmp/notexec"
chmod -x "$tmp/notexec"
# an ELF header of a 32-bit x86 program, and a x86-64 ELF header and nothing more
printf '\177ELF\001\001\001\000\000\000\000\000\000\000\000\000\002\000\003\000' >"$tmp/elf32"
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\076\000\001' >"$tmp/broken"
chmod +x "$tmp/elf32" "$tmp/broken"
cc -o "$tmp/nointerp" "$tmp/t.c" -Wl,--dynamic-linker=/nonexistent/ld.so || exit 1
cat >"$tmp/waits.c" <<'C'
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "w");
    fprintf(f, "%d\n", getpid());
    fclose(f);
    for (;;) pause();
}
C
cc -o "$tmp/waits" "$tmp/waits.c" || exit 1

# name | expected exit status | pattern of tracekit's line | command (after `record`)
while IFS='|' read -r name status pattern cmd; do
    eval "set -- $cmd"
    record_refused "$name" "$status" "$pattern" "$@" || fail=1
done <<'EOF2'
no such file|2|No such file|"$TK" record -o "$out" -- "$tmp/nonexistent"
not in PATH|2|no such program in PATH|"$TK" record -o "$out" -- no-such-program-tk
not executable|2|not an executable file|"$TK" record -o "$out" -- "$tmp/notexec"
a folder|2|is a folder|"$TK" record -o "$out" -- "$tmp/folder"
no #! line|2|nor a script with a #! line|"$TK" record -o "$out" -- "$tmp/noshebang"
32-bit|2|not an x86-64 program|"$TK" record -o "$out" -- "$tmp/elf32"
broken ELF|2|not an ELF program that can be loaded|"$TK" record -o "$out" -- "$tmp/broken"
no interpreter|2|Valgrind could not run|"$TK" record -o "$out" -- "$tmp/nointerp"
no valgrind|2|Valgrind is not installed|env PATH="$tmp/empty" "$TK" record -o "$out" -- "$tmp/true"
no Valgrind folder|2|TRACEKIT_VALGRIND_LIBDIR=.*: no vgpreload_core|env TRACEKIT_VALGRIND_LIBDIR="$tmp/empty" "$TK" record -o "$out" -- "$tmp/true"
no tkrecord|2|tkrecord (tracekit's Valgrind tool|env TRACEKIT_RECORDER_DIR="$tmp/empty" "$TK" record -o "$out" -- "$tmp/true"
output folder|2|cannot write there|"$TK" record -o "$tmp/nofolder/x" -- "$tmp/true"
no program|2|no program to run|"$TK" record -o "$out"
bad option|2|unknown option|"$TK" record --no-such-option -- "$tmp/true"
EOF2

# killed by SIGKILL from outside: Valgrind writes nothing; the program's status
record_killed "$tmp/pid" "$TK" record -o "$out" -- "$tmp/waits" "$tmp/pid" || fail=1

# an output that exists stays as it is without --force
record_keeps "$out.dcfg.json" "$TK" record -q -o "$out" -- "$tmp/true" || fail=1
"$TK" record -q --force -o "$out" -- "$tmp/true" && "$TK" check "$out.dcfg.json" >/dev/null 2>&1 ||
    { echo "--force: the DCFG was not written"; fail=1; }
record_no_leftovers || fail=1

# --keep-raw DIR: DIR made, the raw file kept in DIR/raw, nothing left in TMPDIR (Valgrind's
# logs neither); DIR/raw of an earlier recording is refused (its raw files would be read as
# processes of this one)
rm -f "$out".*
"$TK" record -q --keep-raw "$tmp/kept" -o "$out" -- "$tmp/true" &&
    [ "$(ls "$tmp/kept/raw" | grep -c '\.tkr$')" = 1 ] ||
    { echo "--keep-raw: $(ls -R "$tmp/kept" 2>&1)"; fail=1; }
record_no_leftovers || { echo "(--keep-raw)"; fail=1; }
record_refused "keep-raw again" 2 "kept/raw exists and is not empty" \
    "$TK" record -q --keep-raw "$tmp/kept" -o "$out" -- "$tmp/true" || fail=1

# an output that cannot be written after the run (the disk is full): one line, exit 2 (not
# the program's 0), nothing else written
rm -f "$out".*
ln -s /dev/full "$out.dcfg.json"
"$TK" record -q --trace -o "$out" -- "$tmp/true" 2>"$tmp/stderr"
rc=$?
{ [ $rc = 2 ] && [ "$(grep -c '^tracekit' "$tmp/stderr")" = 1 ] && [ ! -e "$out.trace.json" ]; } ||
    { echo "disk full: exit $rc, $(cat "$tmp/stderr")"; fail=1; }
record_no_leftovers || fail=1
[ $fail = 0 ] && echo "record bad input: 21 cases"
exit $fail
