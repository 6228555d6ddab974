#!/usr/bin/env bash
# Oracle: `tracekit record` against Valgrind's callgrind on the same programs
# (built here: loops and recursion, a jump table, rep movsb, C++ exceptions, a
# signal handler): the self instructions of every function of the program's
# own source equal callgrind_annotate's (through `convert --to callgrind`),
# the total equals callgrind's up to what callgrind leaves out (the last
# superblock of each thread, docs/record.md), conditional branch counts equal
# callgrind's jcnd, every block's count is the sum of its in-edges and of its
# out-edges, `check` accepts the DCFG and `check --dcfg` the trace, which
# decodes to walks from START to END whose per-edge counts are the DCFG's;
# every block's count equals callgrind's, instruction by instruction (--dump-instr);
# the file has the layout of Intel SDE's; the expected edge types are there.
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/record.sh
record_setup
command -v c++ >/dev/null || { echo "c++ not installed"; exit 77; }
fail=0
sde=tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2

cat >"$tmp/loops.c" <<'C'
#include <stdio.h>
__attribute__((noinline)) static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int main(void) {
    long s = 0;
    for (int i = 0; i < 1000; i++) s += i % 7 == 0 ? i : 1;
    printf("%ld %d\n", s, fib(15));
    return 3;
}
C
cat >"$tmp/jtable.c" <<'C'
#include <stdio.h>
static volatile long g = 1;
__attribute__((noinline)) static void f(int x) {
    switch (x) {
    case 0: g += 3; break;
    case 1: g *= 5; break;
    case 2: g -= 7; break;
    case 3: g ^= 11; break;
    case 4: g += 13; break;
    case 5: g |= 17; break;
    case 6: g &= 0xffff; break;
    case 7: g += g; break;
    default: g = 1;
    }
}
int main(int argc, char **argv) {
    (void)argv;
    for (int i = 0; i < 1000; i++) f((i * 7 + argc) % 9);
    printf("%ld\n", g);
    return 0;
}
C
cat >"$tmp/rep.c" <<'C'
#include <stdio.h>
static char a[4096], b[4096];
__attribute__((noinline)) static void copy(char *d, const char *s, unsigned long n) {
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
int main(void) {
    for (int i = 0; i < 50; i++) copy(a, b, 100 + i);
    copy(a, b, 0);
    printf("%d\n", a[3]);
    return 0;
}
C
cat >"$tmp/signal.c" <<'C'
#include <signal.h>
#include <stdio.h>
static volatile int hits;
static void handler(int s) { for (int i = 0; i < 100; i++) hits += s & 1; }
int main(void) {
    signal(SIGUSR1, handler);
    for (int i = 0; i < 5; i++) raise(SIGUSR1);
    printf("%d\n", hits);
    return 0;
}
C
cat >"$tmp/except.cc" <<'C'
#include <cstdio>
#include <stdexcept>
__attribute__((noinline)) static int thrower(int i) {
    if (i % 3 == 0) throw std::runtime_error("x");
    return i;
}
__attribute__((noinline)) static long work(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) {
        try { s += thrower(i); } catch (const std::exception &e) { s -= 1; }
    }
    return s;
}
int main() { std::printf("%ld\n", work(30)); return 0; }
C
for p in loops jtable rep signal; do cc -O1 -g -o "$tmp/$p" "$tmp/$p.c" || exit 1; done
c++ -O1 -g -o "$tmp/except" "$tmp/except.cc" || exit 1

# program, its source, its functions whose jumps are compared (none: the C++
# program, whose landing pads callgrind's jump counts do not follow), exit
# status, edge types that must be there, blocks whose counts differ from
# callgrind's instruction by instruction (_exit's last block, which callgrind
# does not count, and the signal's return trampoline __restore_rt, whose
# `mov $15,%eax; syscall` it does not count either)
cases="loops:loops.c:main,fib:3:DIRECT_CONDITIONAL_BRANCH,FALL_THROUGH,DIRECT_UNCONDITIONAL_BRANCH,DIRECT_CALL,RETURN,SYSTEM_CALL_BYPASS,ENTRY,EXIT:1
jtable:jtable.c:main,f:0:INDIRECT_UNCONDITIONAL_BRANCH:1
rep:rep.c:main,copy:0:REP:1
signal:signal.c:main,handler:0:CONTEXT_CHANGE,CONTEXT_CHANGE_RETURN:2
except:except.cc::0:INDIRECT_CALL,CALL_BYPASS:1"
for c in $cases; do
    IFS=: read -r p src fns status types nblocks <<<"$c"
    out=$tmp/$p
    record_run record -q --trace -o "$out" -- "$tmp/$p" >/dev/null 2>"$out.stderr"
    rc=$?
    [ $rc = "$status" ] || { echo "$p: exit status $rc, expected $status"; cat "$out.stderr"; fail=1; continue; }
    "$TRACEKIT" check "$out.dcfg.json" >"$out.check" 2>&1 &&
        grep -q ": 0 errors, 0 warnings" "$out.check" ||
        { echo "$p: check:"; cat "$out.check"; fail=1; }
    "$TRACEKIT" check --dcfg "$out.dcfg.json" "$out.trace.json" >"$out.tcheck" 2>&1 &&
        grep -q ": 0 errors, 0 warnings" "$out.tcheck" ||
        { echo "$p: check --dcfg:"; cat "$out.tcheck"; fail=1; }
    "$TRACEKIT" decode --what edges --dcfg "$out.dcfg.json" "$out.trace.json" >"$out.edges" ||
        { echo "$p: decode failed"; fail=1; }
    "$TRACEKIT" convert --to callgrind -o "$out.rec.cg" "$out.dcfg.json" ||
        { echo "$p: convert --to callgrind failed"; fail=1; }
    record_callgrind "$out.cg" "$tmp/$p" || { echo "$p: callgrind failed"; cat "$out.cg.err"; fail=1; continue; }
    # in one python process (each file read once): the trace's walks; block
    # counts; self instructions of the functions against callgrind's; the total
    # (callgrind does not count the last superblock a thread runs, its costs are
    # booked at the next one's entry: a few instructions; and string functions
    # of ld.so and libc run a little differently on other addresses);
    # conditional branches against callgrind's jcnd; the expected edge types
    jc=()
    [ -z "$fns" ] || jc=(-- jcnd "$out.cg" "$out.dcfg.json" "/$p" "$fns")
    $RECORD_CHECK walk "$out.dcfg.json" "$out.edges" -- counts "$out.dcfg.json" \
        -- funcs "$out.cg" "$out.rec.cg" "$tmp/$src" -- total "$out.cg" "$out.dcfg.json" 60 \
        ${jc[@]+"${jc[@]}"} -- types "$out.dcfg.json" "$types" \
        -- blocks "$out.cg" "$out.dcfg.json" "$nblocks" >"$out.checks" ||
        { echo "$p: walks, block counts, callgrind's functions, total, jcnd, edge types, blocks:"
          cat "$out.checks"; fail=1; }
done

# Intel's reader reads what SDE writes: the same keys in the same order, the
# same headers, hex strings where SDE writes them, the program as image 1; what
# the signal handler did: 5 deliveries, 5 returns; main's loop (1000 turns)
$RECORD_CHECK layout "$tmp/loops.dcfg.json" "$sde" -- expect "$tmp/loops.dcfg.json" \
    "images[0].endswith('/loops')" "any(n == 'main' and c >= 1000 for n, c in loops)" \
    -- expect "$tmp/signal.dcfg.json" \
    "by_type['CONTEXT_CHANGE'] == 5" "by_type['CONTEXT_CHANGE_RETURN'] == 5" >"$tmp/layout" ||
    { echo "layout differs from SDE's, or image 1, main's loop, context changes:"
      cat "$tmp/layout"; fail=1; }

# compressed outputs, as the name says
"$TRACEKIT" record -q --trace -o "$tmp/z.bz2" -- "$tmp/loops" >/dev/null
for c in zst gz xz; do "$TRACEKIT" record -q -o "$tmp/z.$c" -- "$tmp/loops" >/dev/null; done
for f in z.dcfg.json.bz2 z.trace.json.bz2 z.dcfg.json.zst z.dcfg.json.gz z.dcfg.json.xz; do
    "$TRACEKIT" info "$tmp/$f" 2>&1 |
        grep -q "compression: $(case $f in *bz2) echo bzip2;; *zst) echo zstd;; *gz) echo gzip;; *) echo xz;; esac)" ||
        { echo "$f: not written compressed"; fail=1; }
done
"$TRACEKIT" check --dcfg "$tmp/z.dcfg.json.bz2" "$tmp/z.trace.json.bz2" >/dev/null 2>&1 ||
    { echo "the compressed trace does not check"; fail=1; }
record_no_leftovers || fail=1
for c in $cases; do
    p=${c%%:*}
    printf '%s: %s; %s; %s\n' "$p" "$(sed -n 's/^total: //p' "$tmp/$p.checks" 2>/dev/null)" \
        "$(sed -n 's/^jcnd: //p' "$tmp/$p.checks" 2>/dev/null | tail -1)" \
        "$(sed -n 's/^blocks: blocks: //p' "$tmp/$p.checks" 2>/dev/null)"
done
exit $fail
