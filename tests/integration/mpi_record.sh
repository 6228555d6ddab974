#!/bin/bash
# tracekit-mpi record (issue 28): rank 0 alone runs the program under Valgrind and writes
# what tracekit record writes. The program recorded (below, in assembly) computes nothing
# from where its stack lies, so its DCFG, DCFG-Trace and WET trace do not depend on the
# environment, which mpirun adds to: on 1, 2, 3 and 5 ranks the program runs once (its
# output printed once), tracekit-mpi exits with its status and writes tracekit's bytes (the
# process ids aside), and its refusals (no such program, an output that exists) are
# tracekit's, with nothing written.
set -uo pipefail
. tests/integration/lib/record.sh
record_setup
T=$tmp
. tests/integration/lib/mpi.sh
fail=0
cat >"$T/loop.S" <<'S'
        .text
        .globl _start
_start:
        mov     (%rsp), %rcx            # argc
        imul    $1000, %rcx, %rcx
        xor     %eax, %eax
1:      test    $7, %cl
        jz      2f
        add     %rcx, %rax
        jmp     3f
2:      sub     %rcx, %rax
3:      imul    $31, %rax, %rax
        dec     %rcx
        jnz     1b
        and     $7, %eax
        add     $'0', %al
        mov     %al, msg+3(%rip)
        mov     $1, %eax                # write(1, msg, 5)
        mov     $1, %edi
        lea     msg(%rip), %rsi
        mov     $5, %edx
        syscall
        mov     (%rsp), %rdi            # exit(argc - 1)
        dec     %rdi
        mov     $60, %eax
        syscall
        .data
msg:    .ascii  "ok ?\n"
S
cc -static -nostdlib -o "$T/loop" "$T/loop.S" || { echo "FAIL: cc"; exit 1; }
outs=(dcfg.json trace.json wet)

# no_pids FILE: FILE with its process's id and its parent's as PID where the DCFG and the
# DCFG-Trace name them (a process's row, "PID", "PARENT_PID"; a WET trace names none)
no_pids() {
    local pid ppid
    pid=$(grep -o '"PID" : [0-9]*' "$T/r.dcfg.json" | head -1 | tr -dc 0-9)
    ppid=$(grep -o '"PARENT_PID" : [0-9]*' "$T/r.dcfg.json" | head -1 | tr -dc 0-9)
    sed "s/\\[ $pid,/[ PID,/g; s/\"PID\" : $pid\\b/\"PID\" : PID/g; s/\"PARENT_PID\" : $ppid\\b/\"PARENT_PID\" : PID/g" "$1"
}

# same_record NAME NP ARGS...: tracekit record ARGS and tracekit-mpi on NP ranks print,
# exit and write the same (-o $T/r)
same_record() {
    local name=$1 np=$2 f
    shift 2
    rm -f "$T"/r.* "$T"/one.*
    record_run record "$@" >"$T/one.out" 2>"$T/one.err"
    local rc1=$?
    for f in "${outs[@]}"; do [ -e "$T/r.$f" ] && no_pids "$T/r.$f" >"$T/one.$f"; done
    rm -f "$T"/r.*
    env -u _ TMPDIR="$TMPDIR" timeout 120 mpirun --oversubscribe --allow-run-as-root \
        -np "$np" "$TKMPI" record "$@" >"$T/mpi.out" 2>"$T/mpi.err"
    local rc2=$?
    sed -i '/^-----*$/,/^-----*$/d; /^\(Primary job\|mpirun\|Per user-direction\)/d' "$T/mpi.err"
    if [ $rc1 != $rc2 ] || ! cmp -s "$T/one.out" "$T/mpi.out" ||
        ! cmp -s "$T/one.err" "$T/mpi.err"; then
        echo "FAIL: $name -np $np: exit $rc1 and $rc2, or what they print differs"
        diff "$T/one.out" "$T/mpi.out" | head -5
        diff "$T/one.err" "$T/mpi.err" | head -5
        fail=1
    fi
    for f in "${outs[@]}"; do
        if [ -e "$T/one.$f" ] && [ -e "$T/r.$f" ]; then
            no_pids "$T/r.$f" | cmp -s "$T/one.$f" - ||
                { echo "FAIL: $name -np $np: $f differs"; fail=1; }
        elif [ -e "$T/one.$f" ] || [ -e "$T/r.$f" ]; then
            echo "FAIL: $name -np $np: only one of them wrote $f"
            fail=1
        fi
    done
}

for np in 1 2 3 5; do
    same_record all "$np" -o "$T/r" --trace --wet --dcfg -- "$T/loop" a b
    [ "$(cat "$T/mpi.out")" = "ok 4" ] || { echo "FAIL: -np $np: the program's output"; fail=1; }
    [ -s "$T/r.wet" ] && [ -s "$T/r.trace.json" ] || { echo "FAIL: -np $np: no outputs"; fail=1; }
    grep -q '^tracekit record: .*r\.dcfg\.json: 1 process, 1 thread' "$T/mpi.err" ||
        { echo "FAIL: -np $np: no summary"; fail=1; }
done
"$TK" check "$T/r.dcfg.json" "$T/r.trace.json" >/dev/null 2>&1 &&
    "$TK" check "$T/r.wet" >/dev/null 2>&1 || { echo "FAIL: check refuses the outputs"; fail=1; }
same_record dcfg 3 -o "$T/r" -- "$T/loop"
same_record missing 3 -o "$T/r" -- "$T/no-such-program"
grep -q 'no-such-program' "$T/mpi.err" || { echo "FAIL: missing: no message"; fail=1; }
[ "$(grep -c . "$T/mpi.err")" = 1 ] || { echo "FAIL: missing: not one line"; fail=1; }
# an output that exists: refused, left as it was
echo keep >"$T/r.dcfg.json"
env -u _ TMPDIR="$TMPDIR" timeout 120 mpirun --oversubscribe --allow-run-as-root -np 3 \
    "$TKMPI" record -o "$T/r" -- "$T/loop" >"$T/mpi.out" 2>"$T/mpi.err"
rc=$?
[ $rc = 2 ] && [ "$(cat "$T/r.dcfg.json")" = keep ] && [ ! -s "$T/mpi.out" ] &&
    [ "$(grep -c 'exists' "$T/mpi.err")" = 1 ] ||
    { echo "FAIL: exists: exit $rc, or the file changed"; cat "$T/mpi.err"; fail=1; }
record_no_leftovers || fail=1
[ $fail = 0 ] && echo "tracekit-mpi record: tracekit's outputs on 1, 2, 3 and 5 ranks"
exit $fail
