#!/usr/bin/env bash
# Oracle: the tables of Intel's dcfg-reader that `report --table` prints (statistics,
# source-loops, inner-source-loops) on DCFGs of real programs recorded here (nested loops
# in C built with -g, two threads, gzip), byte for byte against the same tables computed
# from the DCFG's JSON by the tool's rules (tests/integration/lib/dcfg_reader.py), which
# itself gives Intel's outputs of the corpus byte for byte (dcfg_oracle.sh compares
# tracekit with those).
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/record.sh
record_setup
fail=0
C=tests/data/corpus/dcfg-thirdparty
ORACLE="python3 tests/integration/lib/dcfg_reader.py"

# the oracle against Intel's own outputs
for which in whole region; do
    cmp <($ORACLE statistics "$C/passlab-DCFG/$which.log_0.dcfg.json.bz2") \
        <(tail -8 "$C/official-tool-outputs/$which.dcfg-reader.txt") ||
        { echo "the oracle's statistics of $which are not dcfg-reader's"; fail=1; }
done
cmp <($ORACLE source-loops "$C/passlab-DCFG/whole.log_0.dcfg.json.bz2") \
    "$C/official-tool-outputs/whole.all_source_loops.csv" ||
    { echo "the oracle's source loops are not dcfg-reader's"; fail=1; }
cmp <($ORACLE inner-source-loops "$C/passlab-DCFG/whole.log_0.dcfg.json.bz2") \
    "$C/official-tool-outputs/whole.inner_source_loops.csv" ||
    { echo "the oracle's inner source loops are not dcfg-reader's"; fail=1; }

cat >"$tmp/nest.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static long work(int n, int m) {
    long s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            for (int k = 0; k < m; k++) s += (i * j + k) % 7;
    return s;
}
__attribute__((noinline)) static long scan(const char *p) {
    long n = 0;
    while (*p) n += *p++ == 'a';
    return n;
}
int main(int argc, char **argv) {
    long t = 0;
    for (int r = 0; r < 4; r++) t += work(20 + r, argc + 2);
    t += scan(argc > 1 ? argv[1] : "banana");
    printf("%ld\n", t);
    return 0;
}
C
cat >"$tmp/threads.c" <<'C'
#include <pthread.h>
#include <stdio.h>
static void *run(void *arg) {
    long n = (long)arg, s = 0;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < 10; j++) s += i ^ j;
    return (void *)s;
}
int main(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; i++) pthread_create(&t[i], NULL, run, (void *)(100 * (i + 1)));
    long s = 0;
    for (int i = 0; i < 2; i++) {
        void *r;
        pthread_join(t[i], &r);
        s += (long)r;
    }
    printf("%ld\n", s);
    return 0;
}
C
cc -O1 -g -o "$tmp/nest" "$tmp/nest.c" || exit 1
cc -O1 -g -pthread -o "$tmp/threads" "$tmp/threads.c" || exit 1
seq 1 3000 >"$tmp/numbers.txt"
record_run record -q -o "$tmp/nest" -- "$tmp/nest" abracadabra >/dev/null || exit 1
record_run record -q -o "$tmp/threads" -- "$tmp/threads" >/dev/null || exit 1
if command -v gzip >/dev/null; then
    record_run record -q -o "$tmp/gzip" -- gzip -c "$tmp/numbers.txt" >/dev/null || exit 1
fi
for f in "$tmp"/*.dcfg.json; do
    name=$(basename "$f" .dcfg.json)
    for t in statistics source-loops inner-source-loops; do
        if ! cmp <("$TRACEKIT" report --table "$t" "$f") <($ORACLE "$t" "$f"); then
            echo "$name: report --table $t differs from dcfg-reader's rules"; fail=1
        else
            echo "$name: $t, $("$TRACEKIT" report --table "$t" "$f" | wc -l) lines as dcfg-reader's"
        fi
    done
done
# the program's own loops are there: the triple nest of work() with its depths 2, 1, 0
"$TRACEKIT" report --table inner-source-loops "$tmp/nest.dcfg.json" |
    grep -A2 '^2,.*nest\.c:[0-9]*,' | grep -q '^0,.*nest\.c:5,' ||
    { echo "nest: work()'s three loops are not one nest"; fail=1; }
exit $fail
