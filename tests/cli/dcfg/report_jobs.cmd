# report -j N and dump -j N of several DCFGs (each FILE on its own): N at once in N processes
# (each over a range of them), their outputs printed in their order; the same bytes on each
# stream and exit status with -j 1 and -j 4 and without -j, the output stopping at a damaged
# DCFG in the middle (what came after it not printed, as the run one after the other stops); a
# usage error stops both at once; a FILE that cannot be opened stops both before any report
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/dcfg
G="$D/pass/minimal.dcfg.json $D/pass/recursion.dcfg.json $D/merge/hello-run1.dcfg.json"
B="$D/pass/minimal.dcfg.json $D/pass/recursion.dcfg.json $D/fail/dangling-edge.dcfg.json
   $D/pass/generated-hard.dcfg.json $D/merge/hello-run2.dcfg.json"
M="$D/pass/minimal.dcfg.json $t/missing.dcfg.json $D/pass/recursion.dcfg.json"
n=0
run() { # the command with -j 1, -j 4 and without -j: the same bytes and status
    n=$((n + 1))
    for j in 1 4 0; do
        if [ $j = 0 ]; then tracekit "$@" >$t/$n.$j.out 2>$t/$n.$j.err; else
            tracekit "$@" -j $j >$t/$n.$j.out 2>$t/$n.$j.err; fi
        echo $? >>$t/$n.$j.err
    done
    for j in 4 0; do
        cmp -s $t/$n.1.out $t/$n.$j.out && cmp -s $t/$n.1.err $t/$n.$j.err ||
            echo "$*: -j $j differs from -j 1"
    done
    echo "== ${*//$D\//}: $(wc -l <$t/$n.1.out) lines of output" | sed "s|$t/||"
    sed "s|$t/||" $t/$n.1.err
}
run report --top 2 $G
run report --format json $B
run dump $B
run report --top x $G
run dump $M
