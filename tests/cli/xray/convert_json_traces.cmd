# convert --to json of several XRay traces: each event carries "trace": K, the 0-based place of
# its FILE, so that traces with one pid (the same trace twice, ranks of nodes that reuse pids)
# stay apart, as report --per-thread's JSON rows do; the same bytes with -j 1 and -j 2; one
# trace's events have no "trace"
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray/pass
for j in 1 2; do
    tracekit convert --to json -j $j $D/calltree.fdr $D/mtpool.fdr $D/calltree.fdr >$t/out.$j
    echo $?
done
cmp $t/out.1 $t/out.2 && echo "-j 1 and -j 2: the same bytes"
echo "== events by trace, pid"
grep -o '"pid":[0-9]*,"tid":[0-9]*,"trace":[0-9]*' $t/out.1 | sed 's/,"tid":[0-9]*//' | sort | uniq -c
sed -n 2p $t/out.1
grep -m1 '"trace":2' $t/out.1
tracekit convert --to json $D/calltree.fdr | grep -c '"trace"' || echo "one trace: no \"trace\""
