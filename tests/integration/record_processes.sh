#!/usr/bin/env bash
# `tracekit record` of threads, fork, exec and a program killed by a signal
# (programs built here): per-thread counts (the threads' function equals
# callgrind's self instructions, and so does every block of the program,
# instruction by instruction, and the function the forked processes run, and every
# block of the parent; each thread's INSTR_COUNT is the sum of its blocks), one process per fork
# and exec with --trace-children, the recording stopping at an exec without it
# (and the summary saying so), a script's interpreter as its program's image,
# a thread calling exit, faults caught by a handler that jumps away, a program
# killed by a signal (the files are written, marked incomplete, tracekit's exit
# status 128+N), and the trace of every thread of every process.
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/record.sh
record_setup
fail=0

cat >"$tmp/threads.c" <<'C'
#include <pthread.h>
#include <stdio.h>
static long sums[4];
__attribute__((noinline)) static void *run(void *arg) {
    long id = (long)arg, s = 0;
    for (long i = 0; i < 20000 * (id + 1); i++) s += i & 7;
    sums[id] = s;
    return NULL;
}
int main(void) {
    pthread_t t[4];
    for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, run, (void *)i);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    printf("%ld %ld %ld %ld\n", sums[0], sums[1], sums[2], sums[3]);
    return 0;
}
C
cat >"$tmp/texit.c" <<'C'
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
static void *run(void *a) { (void)a; for (volatile int i = 0; i < 10000; i++); exit(5); }
int main(void) { pthread_t t; pthread_create(&t, NULL, run, NULL); for (;;) pause(); }
C
cat >"$tmp/forks.c" <<'C'
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
__attribute__((noinline)) static long spin(long n) { long s = 0; for (long i = 0; i < n; i++) s += i % 5; return s; }
int main(void) {
    pid_t p = fork();
    if (p == 0) { printf("child %ld\n", spin(30000)); return 7; }
    int st;
    waitpid(p, &st, 0);
    printf("parent %ld %d\n", spin(10000), WEXITSTATUS(st));
    return 0;
}
C
cat >"$tmp/execs.c" <<'C'
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    long s = 0;
    for (int i = 0; i < 500; i++) s += i;
    printf("%ld\n", s);
    fflush(stdout);
    if (argc > 1) execv(argv[1], argv + 1);
    return 9;
}
C
cat >"$tmp/segv.c" <<'C'
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
static sigjmp_buf jb;
static void h(int s) { (void)s; siglongjmp(jb, 1); }
int main(void) {
    signal(SIGSEGV, h);
    int n = 0;
    for (int i = 0; i < 3; i++) {
        if (sigsetjmp(jb, 1) == 0) { volatile int *p = (int *)8; n += *p; }
        else n++;
    }
    printf("%d\n", n);
    return 0;
}
C
cat >"$tmp/aborts.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void) { long s = 0; for (int i = 0; i < 1000; i++) s += i; printf("%ld\n", s); abort(); }
C
for p in threads texit forks execs segv aborts; do cc -O1 -g -pthread -o "$tmp/$p" "$tmp/$p.c" || exit 1; done

# $1: DCFG; the rest: python expressions over `procs` (the TRACEKIT_RECORD
# objects in order), `nthreads` (INSTR_COUNT_PER_THREAD lengths) and `by_type`
# (the first process's edge counts by type): record_check.py expect
expect() {
    $RECORD_CHECK expect "$@"
}

# $1: name; the rest: python expressions as for expect. Checks a DCFG and its
# trace: check, check --dcfg, then in one python process the block counts, the
# trace's walks and the expressions
checks() {
    local name=$1 out=$tmp/$1
    shift
    for f in "$out.dcfg.json" "--dcfg $out.dcfg.json $out.trace.json"; do
        # shellcheck disable=SC2086
        "$TRACEKIT" check $f >"$out.check" 2>&1 && grep -q ": 0 errors, 0 warnings" "$out.check" ||
            { echo "$name: check $f:"; cat "$out.check"; fail=1; }
    done
    "$TRACEKIT" decode --what edges --dcfg "$out.dcfg.json" "$out.trace.json" >"$out.edges" ||
        { echo "$name: decode failed"; fail=1; }
    local more=()
    [ $# = 0 ] || more=(-- expect "$out.dcfg.json" "$@")
    $RECORD_CHECK counts "$out.dcfg.json" -- walk "$out.dcfg.json" "$out.edges" \
        ${more[@]+"${more[@]}"} >"$out.checks" ||
        { echo "$name: block counts, the trace's walks, expectations:"; cat "$out.checks"; fail=1; }
}

# threads: 5 counted apart, the workers' function as callgrind counts it, and every block of
# the program instruction by instruction (libc's thread start and join are left out: their
# waits depend on the scheduling, two runs of tkrecord differ there too)
record_run record -q --trace -o "$tmp/threads" -- "$tmp/threads" >/dev/null || { echo "threads: exit $?"; fail=1; }
checks threads "nthreads == [5]"
"$TRACEKIT" convert --to callgrind -o "$tmp/threads.rec.cg" "$tmp/threads.dcfg.json" &&
    record_callgrind "$tmp/threads.cg" "$tmp/threads" &&
    $RECORD_CHECK funcs "$tmp/threads.cg" "$tmp/threads.rec.cg" "$tmp/threads.c" \
        -- blocks "$tmp/threads.cg" "$tmp/threads.dcfg.json" 0 /threads >"$tmp/threads.funcs" ||
    { echo "threads: functions differ from callgrind's:"; cat "$tmp/threads.funcs"; fail=1; }
record_run record -q --trace --threads-limit 2 -o "$tmp/limited" -- "$tmp/threads" >/dev/null
"$TRACEKIT" check --dcfg "$tmp/limited.dcfg.json" "$tmp/limited.trace.json" >"$tmp/limited.check" 2>&1 &&
    grep -q ": 0 errors" "$tmp/limited.check" || { echo "limited:"; cat "$tmp/limited.check"; fail=1; }
"$TRACEKIT" decode --what edges --dcfg "$tmp/limited.dcfg.json" "$tmp/limited.trace.json" \
    >"$tmp/limited.edges" || { echo "limited: decode failed"; fail=1; }
$RECORD_CHECK connected "$tmp/limited.dcfg.json" "$tmp/limited.edges" \
    -- expect "$tmp/limited.dcfg.json" "nthreads == [2]" "procs[0]['THREADS_FOLDED'] == 3" \
    >"$tmp/limited.walk" ||
    { echo "limited: the trace's walks, expectations:"; cat "$tmp/limited.walk"; fail=1; }

# a thread ends the program with exit(5)
record_run record -q --trace -o "$tmp/texit" -- "$tmp/texit" >/dev/null
rc=$?
[ $rc = 5 ] || { echo "texit: exit status $rc, expected 5"; fail=1; }
checks texit "nthreads == [2]" "procs[0]['EXIT_STATUS'] == 5"

# fork: without --trace-children the parent only; with it, the child too
record_run record -q -o "$tmp/fork1" -- "$tmp/forks" >/dev/null || { echo "forks: exit $?"; fail=1; }
expect "$tmp/fork1.dcfg.json" "len(procs) == 1" || fail=1
record_run record -q --trace --trace-children -o "$tmp/forks" -- "$tmp/forks" >/dev/null ||
    { echo "forks --trace-children: exit $?"; fail=1; }
checks forks "len(procs) == 2" "procs[1]['PARENT_PID'] == procs[0]['PID']" \
    "procs[1]['EXIT_STATUS'] == 7" "all(p['COMPLETE'] for p in procs)"
# spin, run in both processes after the fork, as callgrind counts it in its two files (main
# is not compared: callgrind's child counts what the parent ran before the fork again), and
# every block of the parent (the first process) as callgrind's file of the lower pid counts it
"$TRACEKIT" convert --to callgrind -o "$tmp/forks.rec.cg" "$tmp/forks.dcfg.json" &&
    record_callgrind "$tmp/forks.cg.%p" --trace-children=yes "$tmp/forks" &&
    $RECORD_CHECK funcs "$(ls "$tmp"/forks.cg.[0-9]* | paste -sd,)" "$tmp/forks.rec.cg" \
        "$tmp/forks.c" spin -- blocks "$(ls "$tmp"/forks.cg.[0-9]* | awk -F. '{ print $NF, $0 }' | sort -n | sed -n '1s/^[0-9]* //p')" \
        "$tmp/forks.dcfg.json" 1 >"$tmp/forks.funcs" ||
    { echo "forks: spin differs from callgrind's:"; cat "$tmp/forks.funcs"; fail=1; }

# exec: the recording stops there, or goes on in the new program
# (the summary line says so: a user recording a wrapper would not know), and a script's
# program, image 1, is its interpreter
record_run record -o "$tmp/exec1" -- "$tmp/execs" /bin/true >/dev/null 2>"$tmp/exec1.err" ||
    { echo "execs: exit $?"; fail=1; }
expect "$tmp/exec1.dcfg.json" "len(procs) == 1" "procs[0]['END'] == 'exec'" || fail=1
grep -q "the recording stopped where the program exec'd another one" "$tmp/exec1.err" ||
    { echo "execs: the summary does not say the recording stopped: $(cat "$tmp/exec1.err")"; fail=1; }
printf '#!/bin/sh\nexec /bin/true\n' >"$tmp/script"
chmod +x "$tmp/script"
record_run record -q -o "$tmp/script" -- "$tmp/script" >/dev/null || { echo "script: exit $?"; fail=1; }
expect "$tmp/script.dcfg.json" "images[0].endswith('/$(basename "$(readlink -f /bin/sh)")')" || fail=1
record_run record -q --trace --trace-children -o "$tmp/execs" -- "$tmp/execs" "$tmp/execs" >/dev/null
rc=$?
[ $rc = 9 ] || { echo "execs: exit status $rc, expected 9"; fail=1; }
checks execs "len(procs) == 2" "procs[0]['END'] == 'exec'" \
    "procs[1]['EXEC_GENERATION'] == 1 and procs[1]['PID'] == procs[0]['PID']" \
    "procs[1]['EXIT_STATUS'] == 9"

# faults in a superblock, each a signal whose handler jumps away
record_run record -q --trace -o "$tmp/segv" -- "$tmp/segv" >/dev/null || { echo "segv: exit $?"; fail=1; }
checks segv "by_type['CONTEXT_CHANGE'] == 3"

# killed by a signal: the files are written, marked incomplete; 128 + SIGABRT
record_run record -q --trace -o "$tmp/aborts" -- "$tmp/aborts" >/dev/null 2>&1
rc=$?
[ $rc = 134 ] || { echo "aborts: exit status $rc, expected 134"; fail=1; }
checks aborts "procs[0]['END'] == 'signal'" "procs[0]['SIGNAL'] == 6" "procs[0]['COMPLETE'] == 0"
record_no_leftovers || fail=1
[ $fail = 0 ] && echo "record processes: threads, exit from a thread, fork, exec, faults, abort"
exit $fail
