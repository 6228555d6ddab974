#!/usr/bin/env bash
# `tracekit record --wet` (docs/record.md, "WET"): the WET spec's example and
# programs whose dynamic slices are known by construction.
# - foo1.c of the spec (lines as the spec numbers them), compiled -g -O0 and run
#   as `foo1 2 7`: the instruction of line 8 that loads x is control dependent
#   on the branch of line 4 and data dependent on the store of line 6, its
#   first instance defines 2; the history form holds the two lines of those
#   dependences;
# - straight-line code, a loop carrying a value, an if whose unexecuted branch
#   would have defined the variable, a value through memory, a call and its
#   return value, two threads handing a value through memory under a mutex,
#   recursion (an instance depends on its caller frame's test), longjmp out of
#   recursion (none of the frames it leaves stays on the control stack):
#   `tracekit slice --lines`, backward from the line tagged C and forward from
#   the line tagged S, gives exactly the program's lines tagged B and F (each
#   tag's reason in the comment; the function's first line is in a slice when
#   its frame pointer, set there, addresses the locals; push and pop pass on
#   the definer of what they copy, so a callee's save and restore of a register
#   is not in a slice);
# - the ports of x86-64 instructions (registers, flags, memory, address registers,
#   push/pop and the stack pointer, rep movsb, SIMD, syscall) and their definers;
# - a wrapper script that execs the program: the trace is of the program; a
#   child running a shell command (system) is not traced;
# - `tracekit check` accepts every trace; `convert --to wet-history` of the
#   comprehensive form equals the history form recorded in the same run when
#   the buffer holds every dependence (also when the comprehensive form spilled
#   to files beyond --wet-memory); every instruction's instances equal the
#   count of its block in the DCFG of the same run (--dcfg), their sum the
#   DCFG's instructions; no temporary file is left.
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/record.sh
record_setup
fail=0

# the spec's program: line 1 declares what the spec's version uses undeclared
cat >"$tmp/foo1.c" <<'C'
int x, y, result; int atoi(const char *); int printf(const char *, ...);
int main(int argc, char **argv)
{
    if(argc >= 3)
    {
       x = atoi(argv[1]);
       y = atoi(argv[2]);
       result = x * 7;
       result = result + y;
       printf("result is %d\n", result);
    }
}
C
cat >"$tmp/straight.c" <<'C'
int printf(const char *, ...);
int main(void) {               /* B: the frame pointer */
    int a = 3;                 /* B F S */
    int b = a * 2;             /* B F */
    int c = 10;
    int d = b + 1;             /* B F C */
    int e = c + 4;
    printf("%d %d\n", d, e);   /* F: d */
    return 0;
}
C
cat >"$tmp/loop.c" <<'C'
int printf(const char *, ...);
int main(void) {                       /* B: the frame pointer */
    int s = 0;                         /* B: the first s */
    int t = 0;                         /* F S */
    for (int i = 0; i < 5; i++) {      /* B: i, and the loop's branch */
        s = s + i;                     /* B: s carried from one iteration to the next */
        t = t + 2;                     /* F */
    }
    int r = s * 3;                     /* B C */
    printf("%d\n", r);
    printf("%d\n", t);                 /* F */
    return 0;
}
C
cat >"$tmp/ifdef.c" <<'C'
int printf(const char *, ...);
int main(int argc, char **argv) {      /* B: the frame pointer */
    int v = 1;                         /* B F S */
    int w = argc;
    if (w > 5) {                       /* r does not depend on it: r's line post-dominates it */
        v = 2;                         /* never runs */
    }
    int r = v + 1;                     /* B F C */
    printf("%d\n", r);                 /* F */
    return 0;
}
C
cat >"$tmp/memory.c" <<'C'
int printf(const char *, ...);
static int buf[4];
int main(void) {                       /* B: the frame pointer */
    int *p = &buf[2];                  /* B: the address stored through */
    int k = 7;                         /* B F S */
    *p = k * 3;                        /* B F */
    int q = 9;
    buf[1] = q;                        /* the next bytes: not read */
    int r = buf[2] + 1;                /* B F C */
    printf("%d\n", r);                 /* F */
    return 0;
}
C
cat >"$tmp/call.c" <<'C'
int printf(const char *, ...);
__attribute__((noinline)) int sq(int x) {   /* B F: the parameter stored; the frame pointer */
    int y = x * x;                          /* B F */
    return y + 1;                           /* B F: the return value */
}                                           /* pop %rbp only copies main's frame pointer back */
int main(void) {                            /* B: the frame pointer */
    int a = 4;                              /* B F S */
    int b = 100;
    int c = sq(a);                          /* B F: the argument, the result stored */
    int d = c * 2;                          /* B F C */
    printf("%d %d\n", d, b);                /* F: d */
    return 0;
}
C
cat >"$tmp/threads.c" <<'C'
#include <pthread.h>
#include <stdio.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int shared, ready;
static void *producer(void *arg) {           /* B: the frame pointer */
    int v = 40;                              /* B F S */
    v = v + 2;                               /* B F */
    pthread_mutex_lock(&m);
    shared = v;                              /* B F: the value handed over */
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return arg;
}
int main(void) {                             /* B: the frame pointer */
    pthread_t t;
    int got = 0;
    pthread_create(&t, NULL, producer, NULL);
    pthread_mutex_lock(&m);
    while (!ready)                           /* waits without spinning: the trace's size */
        pthread_cond_wait(&c, &m);           /* does not depend on the scheduler */
    got = shared;                            /* B F: the other thread's store */
    pthread_mutex_unlock(&m);
    int out = got * 2;                       /* B F C */
    printf("%d\n", out);                     /* F */
    pthread_join(t, NULL);
    return 0;
}
C
cat >"$tmp/recurse.c" <<'C'
int printf(const char *, ...);
static int seen, out;
__attribute__((noinline)) static void walk(int n) {   /* B: n stored, the frame pointer */
    if (n > 0)                                         /* B: the caller's test made the call */
        walk(n - 1);                                   /* B: n - 1 */
    else
        seen = 1;
    out = 42;                                          /* B C#0: the first instance, deepest */
}
int main(void) {                                       /* B: the stack pointer walk's frames are made from */
    walk(3);                                           /* B: 3 */
    printf("%d %d\n", out, seen);
    return 0;
}
C
cat >"$tmp/jump.c" <<'C'
#include <setjmp.h>
int printf(const char *, ...);
static jmp_buf jb;
static int a, b;
__attribute__((noinline)) static void dive(int n) {
    if (n == 0) longjmp(jb, 1);
    dive(n - 1);
}
int main(void) {
    a = 5;                                   /* B F S */
    if (setjmp(jb) == 0) dive(3);
    b = a + 1;                               /* B F C: nothing of dive's frames is left */
    printf("%d\n", b);                       /* F */
    return 0;
}
C
# C++ exceptions: the unwinder leaves frames without their returns (checked,
# counted; their slices go through libgcc's unwinder)
cat >"$tmp/throw.cc" <<'C'
#include <cstdio>
static int a, b;
__attribute__((noinline)) static int thrower(int n) {
    if (n > 2) throw n;
    return thrower(n + 1);
}
int main() {
    a = 5;
    try { thrower(0); } catch (int e) { a += e; }
    b = a + 1;
    std::printf("%d\n", b);
    return 0;
}
C
for p in foo1 straight loop ifdef memory call threads recurse jump; do
    cc -g -O0 -o "$tmp/$p" "$tmp/$p.c" -lpthread || exit 1
done
progs="foo1 straight loop ifdef memory call threads recurse jump"
if command -v c++ >/dev/null; then
    c++ -g -O0 -o "$tmp/throw" "$tmp/throw.cc" || exit 1
    progs="$progs throw"
fi

# every program with both forms (a buffer that holds everything) and its DCFG
# (the threaded one kept in 1 MB: its comprehensive form spills, and is still the history
# form recorded beside it)
for p in $progs; do
    args=() opts=(-q)
    [ "$p" = foo1 ] && args=(2 7)
    [ "$p" = threads ] && opts=(--wet-memory 1)
    out=$tmp/$p
    record_run record "${opts[@]}" --wet --wet-history 100000000 --dcfg -o "$out" -- "$tmp/$p" \
        ${args[@]+"${args[@]}"} >"$out.stdout" 2>"$out.stderr" ||
        { echo "$p: record failed"; cat "$out.stderr"; fail=1; continue; }
    [ "$p" != threads ] || grep -q "spill files" "$out.stderr" ||
        { echo "$p: no spill in 1 MB: $(cat "$out.stderr")"; fail=1; }
    for f in "$out.wet" "$out.wet-history" "$out.dcfg.json"; do
        "$TRACEKIT" check "$f" >"$f.check" 2>&1 && grep -q ": 0 errors, 0 warnings" "$f.check" ||
            { echo "$p: check $f:"; cat "$f.check"; fail=1; }
    done
    "$TRACEKIT" convert --to wet-history -o "$out.converted" "$out.wet" &&
        cmp -s "$out.converted" "$out.wet-history" ||
        { echo "$p: convert --to wet-history differs from the recorded history"; fail=1; }
    checks=(wetcounts "$out.dcfg.json" "$out.wet")
    if [ "$p" = foo1 ]; then
        checks+=(-- foo1 "$out.wet" "$out.wet-history")
    elif [ -f "$tmp/$p.c" ]; then
        checks+=(-- slices "$TRACEKIT" "$out.wet" "$tmp/$p.c")
    fi
    $RECORD_CHECK "${checks[@]}" >"$out.checks" || fail=1
    sed "s/^/$p: /" "$out.checks"
done
grep -q "result is 21" "$tmp/foo1.stdout" || { echo "foo1: its output is not there"; fail=1; }

# a wrapper script that execs the program (a shim), and a program whose child
# runs a shell command (system): the WET trace is of the program, not of the
# script nor of the child
printf '#!/bin/sh\nexec "$(dirname "$0")/straight" "$@"\n' >"$tmp/wrapper"
chmod +x "$tmp/wrapper"
record_run record --wet -o "$tmp/wrapped" -- "$tmp/wrapper" >/dev/null 2>"$tmp/wrapped.stderr" &&
    grep -q "the WET trace is of $tmp/straight, which the program exec'd" "$tmp/wrapped.stderr" &&
    $RECORD_CHECK slices "$TRACEKIT" "$tmp/wrapped.wet" "$tmp/straight.c" >"$tmp/wrapped.checks" ||
    { echo "wrapper:"; cat "$tmp/wrapped.stderr" "$tmp/wrapped.checks"; fail=1; }
sed 's/^/wrapper: /' "$tmp/wrapped.checks"
cat >"$tmp/system.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void) {                                 /* B: the frame pointer */
    int a = 3;                                   /* B F S */
    int s = system("exit 7");
    int b = a * 2;                               /* B F C */
    printf("%d %d\n", b, s >> 8);                /* F */
    return 0;
}
C
cc -g -O0 -o "$tmp/system" "$tmp/system.c" || exit 1
record_run record --wet -o "$tmp/system" -- "$tmp/system" >"$tmp/system.stdout" 2>"$tmp/system.stderr" &&
    grep -q "^6 7$" "$tmp/system.stdout" && ! grep -q "exec'd" "$tmp/system.stderr" &&
    grep -q "^tracekit record: recorded 1 process, " "$tmp/system.stderr" &&
    $RECORD_CHECK slices "$TRACEKIT" "$tmp/system.wet" "$tmp/system.c" >"$tmp/system.checks" ||
    { echo "system:"; cat "$tmp/system.stdout" "$tmp/system.stderr" "$tmp/system.checks"; fail=1; }
sed 's/^/system: /' "$tmp/system.checks"

# the ports of x86-64 instructions as docs/record.md maps them, and who defined what each
# used (an instruction at each label of a non-PIE program: nm gives its address)
cat >"$tmp/ports.c" <<'C'
#include <stdio.h>
long mem[8] = {1, 2, 3, 4, 5, 6, 7, 8};
char dst[64];
long work(void);
__asm__(".text\n"
        "work:\n"
        "    push %rbp\n"
        "    push %rbx\n"
        "p_lea: lea mem(%rip), %rbp\n"
        "p_setb: mov $7, %ebx\n"
        "p_load: mov (%rbp), %eax\n"      /* 3: %rbp, the memory (never stored: no definer) */
        "p_add: add %ebx, %eax\n"         /* 3: %rax, %rbx */
        "p_xor: xor %edx, %edx\n"         /* 1: it reads nothing */
        "p_inc: inc %eax\n"               /* 3: %rax, the flags (it keeps CF) */
        "p_push: push %rbx\n"             /* 2: %rbx (%rsp is implicit) */
        "p_pop: pop %rbx\n"               /* 2: the memory, defined by what push copied */
        "p_movsp: mov %rsp, %rdx\n"       /* 2: %rsp, defined by pop */
        "p_mul: mul %rbx\n"               /* 3: %rax, %rbx */
        "p_cmp: cmp $3, %eax\n"           /* 2: %rax (mul) */
        "p_jcc: jne 1f\n"                 /* 2: the flags (cmp) */
        "    nop\n"
        "1:\n"
        "p_store: mov %eax, 8(%rbp)\n"    /* 3: %rbp, %rax */
        "p_reload: mov 8(%rbp), %rcx\n"   /* 3: %rbp, the memory (two definers: the latest) */
        "p_lsi: lea mem(%rip), %rsi\n"
        "p_ldi: lea dst(%rip), %rdi\n"
        "p_setc: mov $16, %ecx\n"
        "p_rep: rep movsb\n"              /* 6: %rcx, %rsi, %rdi, the direction flag, memory */
        "p_pxor: pxor %xmm1, %xmm1\n"     /* 1 */
        "p_movq: movq %xmm1, %rdx\n"      /* 2: %xmm1 */
        "p_nr: mov $39, %eax\n"
        "p_sys: syscall\n"                /* 8: %rax, %rdi, %rsi, %rdx, %r10, %r8, %r9 */
        "p_use: mov %eax, %ecx\n"         /* 2: %rax, defined by the system call */
        "    pop %rbx\n"
        "    pop %rbp\n"
        "    ret\n");
int main(void) { printf("%ld\n", work() > 0); return 0; }
C
cc -g -O0 -no-pie -o "$tmp/ports" "$tmp/ports.c" || exit 1
record_run record -q --wet -o "$tmp/ports" -- "$tmp/ports" >/dev/null 2>"$tmp/ports.stderr" &&
    $RECORD_CHECK ports "$tmp/ports.wet" "$tmp/ports" p_load=3:p_lea,-:1 p_add=3:p_load,p_setb:8 \
        p_xor=1: p_inc=3:p_add,p_xor:9 p_push=2:p_setb p_pop=2:p_setb:7 p_movsp=2:p_pop \
        p_mul=3:p_inc,p_setb p_cmp=2:p_mul p_jcc=2:p_cmp p_store=3:p_lea,p_mul:3f \
        p_reload=3:p_lea,p_store:3f p_rep=6:p_setc,p_lsi,p_ldi,-,- p_pxor=1: p_movq=2:p_pxor \
        p_sys=8:p_nr,p_rep,p_rep,p_movq,... p_use=2:p_sys >"$tmp/ports.checks" ||
    { echo "ports:"; cat "$tmp/ports.stderr" "$tmp/ports.checks"; fail=1; }

# the history form alone, a buffer of 1000: its last 1000 dependences; the
# comprehensive form alone
record_run record -q --wet-history 1000 -o "$tmp/h" -- "$tmp/loop" >/dev/null 2>&1 &&
    [ "$(wc -l <"$tmp/h.wet-history")" = 1000 ] && [ ! -e "$tmp/h.wet" ] &&
    [ ! -e "$tmp/h.dcfg.json" ] || { echo "--wet-history 1000 alone: not 1000 lines"; fail=1; }
record_no_leftovers || fail=1
exit $fail
