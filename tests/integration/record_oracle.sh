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
# status, edge types that must be there
cases="loops:loops.c:main,fib:3:DIRECT_CONDITIONAL_BRANCH,DIRECT_CALL,RETURN
jtable:jtable.c:main,f:0:INDIRECT_UNCONDITIONAL_BRANCH
rep:rep.c:main,copy:0:REP
signal:signal.c:main,handler:0:CONTEXT_CHANGE,CONTEXT_CHANGE_RETURN
except:except.cc::0:INDIRECT_CALL,CALL_BYPASS"
for c in $cases; do
    IFS=: read -r p src fns status types <<<"$c"
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
    "$TRACEKIT" decode --what edges --dcfg "$out.dcfg.json" "$out.trace.json" >"$out.edges" &&
        $RECORD_CHECK walk "$out.dcfg.json" "$out.edges" >"$out.walk" ||
        { echo "$p: the trace's walks:"; cat "$out.walk"; fail=1; }
    $RECORD_CHECK counts "$out.dcfg.json" >"$out.counts" ||
        { echo "$p: block counts:"; cat "$out.counts"; fail=1; }
    "$TRACEKIT" convert --to callgrind -o "$out.rec.cg" "$out.dcfg.json" ||
        { echo "$p: convert --to callgrind failed"; fail=1; }
    record_callgrind "$out.cg" "$tmp/$p" || { echo "$p: callgrind failed"; cat "$out.cg.err"; fail=1; continue; }
    $RECORD_CHECK funcs "$out.cg" "$out.rec.cg" "$tmp/$src" >"$out.funcs" ||
        { echo "$p: self instructions differ from callgrind's:"; cat "$out.funcs"; fail=1; }
    # callgrind does not count the last superblock a thread runs (its costs are
    # booked at the next one's entry): a few instructions; and string functions
    # of ld.so and libc run a little differently on other addresses
    $RECORD_CHECK total "$out.cg" "$out.dcfg.json" 60 >"$out.total" ||
        { echo "$p: instruction total:"; cat "$out.total"; fail=1; }
    if [ -n "$fns" ]; then
        $RECORD_CHECK jcnd "$out.cg" "$out.dcfg.json" "/$p" "$fns" >"$out.jcnd" ||
            { echo "$p: conditional branches differ from callgrind's jcnd:"; cat "$out.jcnd"; fail=1; }
    fi
    for t in ${types//,/ }; do
        python3 - "$out.dcfg.json" "$t" <<'PY' || { echo "$p: no $t edge"; fail=1; }
import json, sys
d = json.load(open(sys.argv[1]))
ids = {r[0] for r in d["EDGE_TYPES"][1:] if r[1] == sys.argv[2]}
edges = d["PROCESSES"][1][1]["EDGES"][1:]
ok = any(e[3] in ids and (sum(e[4]) or sys.argv[2].endswith("BYPASS")) for e in edges)
sys.exit(0 if ok else 1)
PY
    done
done

# what the signal handler did: 5 deliveries, 5 returns
python3 - "$tmp/signal.dcfg.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
types = {r[0]: r[1] for r in d["EDGE_TYPES"][1:]}
n = {}
for e in d["PROCESSES"][1][1]["EDGES"][1:]:
    n[types[e[3]]] = n.get(types[e[3]], 0) + sum(e[4])
if n.get("CONTEXT_CHANGE") != 5 or n.get("CONTEXT_CHANGE_RETURN") != 5:
    print("signal: %s context changes and %s returns, expected 5 and 5" %
          (n.get("CONTEXT_CHANGE"), n.get("CONTEXT_CHANGE_RETURN")))
    sys.exit(1)
PY

# Intel's reader reads what SDE writes: the same keys in the same order, the
# same headers, hex strings where SDE writes them
$RECORD_CHECK layout "$tmp/loops.dcfg.json" "$sde" >"$tmp/layout" ||
    { echo "layout differs from SDE's:"; cat "$tmp/layout"; fail=1; }

# compressed outputs, as the name says
"$TRACEKIT" record -q --trace -o "$tmp/z.bz2" -- "$tmp/loops" >/dev/null
"$TRACEKIT" record -q -o "$tmp/z.zst" -- "$tmp/loops" >/dev/null
for f in z.dcfg.json.bz2 z.trace.json.bz2 z.dcfg.json.zst; do
    "$TRACEKIT" info "$tmp/$f" 2>&1 | grep -q "compression: $(case $f in *bz2) echo bzip2;; *) echo zstd;; esac)" ||
        { echo "$f: not written compressed"; fail=1; }
done
"$TRACEKIT" check --dcfg "$tmp/z.dcfg.json.bz2" "$tmp/z.trace.json.bz2" >/dev/null 2>&1 ||
    { echo "the compressed trace does not check"; fail=1; }
record_no_leftovers || fail=1
for c in $cases; do
    p=${c%%:*}
    printf '%s: %s; %s\n' "$p" "$(cat "$tmp/$p.total" 2>/dev/null)" "$(tail -1 "$tmp/$p.jcnd" 2>/dev/null)"
done
exit $fail
