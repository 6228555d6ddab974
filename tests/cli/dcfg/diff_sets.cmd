# diff A... --vs B... of DCFGs: each set merged as tracekit merge merges it (-j threads), then
# the diff of the two: the bytes of merge -o a A..., merge -o b B..., diff a b (text, json,
# csv, --equal, a cut) on -j 1 and -j 4; the text; a damaged DCFG of A: its error, exit 1
t=$(mktemp -d); trap 'rm -rf $t' EXIT
M=tests/data/dcfg/merge
A="$M/hello-run1.dcfg.json $M/hello-run2.dcfg.json"
B="$M/hello-run2.dcfg.json $M/hello-run1.dcfg.json $M/hello-run1.dcfg.json"
tracekit merge -o $t/a.json $A
tracekit merge -o $t/b.json $B
same() {
    tracekit diff "$@" $t/a.json $t/b.json >$t/want 2>&1
    echo $? >>$t/want
    for j in 1 4; do
        tracekit diff -j $j "$@" $A --vs $B >$t/got 2>&1
        echo $? >>$t/got
        cmp -s $t/want $t/got || echo "$*: -j $j differs from merge then diff"
    done
    echo "== diff $*: $(wc -c <$t/want) bytes, as merge then diff"
}
same
same --format json
same --format csv
same --equal
same -n 2
tracekit diff -n 3 $A --vs $B
tracekit diff -o $t/x.txt $M/hello-late-bad.dcfg.json $M/hello-run1.dcfg.json --vs $B
echo "exit $?, -o written: $(ls $t | grep -c x.txt)"
