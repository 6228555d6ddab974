# diff A... --vs B... of XRay traces: each side read as report reads several traces of one
# binary (the latency accountings merged in order, -j threads): per function, the calls, total
# and median of each side are those of report of that side (compared to the microsecond of
# the diff's text); -j 1 and -j 4 give the same bytes; one trace a side is the diff of two
# traces (--format folded and svg of sets: diff_sets_folded, diff_sets_svg); a missing trace:
# its error, exit 1
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray/pass
A="$D/mtpool.fdr $D/mtpool-wrapped.fdr $D/mtpool.basic"
B="$D/mtpool.fdr $D/mtpool.fdr"
tracekit report --format csv --all $A >$t/ra.csv 2>/dev/null
tracekit report --format csv --all $B >$t/rb.csv 2>/dev/null
tracekit diff -j 1 --format csv --all $A --vs $B >$t/d.csv 2>/dev/null
tracekit diff -j 4 --format csv --all $A --vs $B 2>/dev/null | cmp - $t/d.csv && echo "-j 1 and -j 4: the same bytes"
python3 - $t/ra.csv $t/rb.csv $t/d.csv <<'PY'
import csv, sys
side = [{r["funcid"]: r for r in csv.DictReader(open(p))} for p in sys.argv[1:3]]
rows = list(csv.DictReader(open(sys.argv[3])))
bad = 0
for r in rows:
    for s, k in ((0, "a"), (1, "b")):
        rep = side[s].get(r["funcid"])
        got = (int(r["count_" + k]), float(r["sum_" + k]), float(r["median_" + k]))
        want = (int(rep["count"]), float(rep["sum"]), float(rep["median"])) if rep else (0, 0.0, 0.0)
        if got[0] != want[0] or abs(got[1] - want[1]) > 5e-4 or abs(got[2] - want[2]) > 5e-4:
            bad += 1
            print("function", r["funcid"], "side", k, got, "report:", want)
print(len(rows), "functions;", "every one as report of each side" if not bad else "%d differ" % bad)
PY
tracekit diff -n 4 $A --vs $B
tracekit diff $D/calltree.fdr --vs $D/calltree-typed.fdr >$t/one
tracekit diff $D/calltree.fdr $D/calltree-typed.fdr | cmp - $t/one && echo "one a side: the diff of two traces"
tracekit diff -o $t/x.txt $A --vs $D/mtpool.fdr $D/missing.fdr
echo "exit $?, -o written: $(ls $t | grep -c x.txt)"
