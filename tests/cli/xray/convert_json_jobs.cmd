# convert --to json -j N of several XRay traces: the next traces made ahead on N threads (each
# trace's events as JSON lines), written in the order of the FILEs: the bytes of -j 1, which
# reads them one after the other as one stream, on standard output and in -o, with the same
# warnings (a trace cut short, ids the map lacks) and exit status, with -j 2, 3, 4 and
# without -j
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray
M="$D/pass/mtpool.fdr $D/fail/mtpool-cut.fdr $D/pass/mtpool.basic $D/pass/mtpool-wrapped.fdr
   $D/pass/mtpool.fdr"
S="$M $D/pass/calltree.fdr $D/fail/calltree-cut.basic $D/pass/calltree-typed.fdr"
run() { # the command with -j 1, 2, 3, 4 and without -j: the same bytes and status
    rm -f $t/*
    for j in 1 2 3 4 ${TK_WITHOUT_J-0}; do
        if [ $j = 0 ]; then tracekit "$@" -o $t/out.$j >$t/stdout.$j 2>$t/err.$j; else
            tracekit "$@" -j $j -o $t/out.$j >$t/stdout.$j 2>$t/err.$j; fi
        echo $? >>$t/err.$j
        tracekit "$@" -j ${j/0/1} >$t/pipe.$j 2>/dev/null
    done
    for j in 2 3 4 ${TK_WITHOUT_J-0}; do
        cmp $t/out.1 $t/out.$j && cmp $t/err.1 $t/err.$j && cmp $t/stdout.1 $t/stdout.$j &&
            cmp $t/out.1 $t/pipe.$j || echo "$*: -j $j differs from -j 1"
    done
    echo "== ${*//$D\//}: $(wc -c <$t/out.1) bytes, $(grep -c '"kind":' $t/out.1) events"
    cat $t/err.1
}
run convert --to json -m $D/bin/mtpool $M
run convert --to json $S
run convert --to json --thread 6261 $S
run convert --to json -m $D/bin/calltree $S
run convert --to json $D/pass/calltree-typed.fdr $D/pass/calltree-typed-be.fdr $D/pass/calltree.fdr
head -c 300 $t/out.1; echo; tail -c 200 $t/out.1
