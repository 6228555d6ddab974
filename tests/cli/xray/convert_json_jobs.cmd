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
# -j 1 is the reference; under ThreadSanitizer, which leaves it out (tests/run.sh), -j 2 is,
# checked against the bytes (their checksum) the golden has of the other builds' -j 1
js=(${TK_WITH_J1-1} 2 3 4 ${TK_WITHOUT_J-0}) r=${js[0]}
run() { # the command with -j 1, 2, 3, 4 and without -j: the same bytes and status
    rm -f $t/*
    for j in "${js[@]}"; do
        if [ $j = 0 ]; then tracekit "$@" -o $t/out.$j >$t/stdout.$j 2>$t/err.$j; else
            tracekit "$@" -j $j -o $t/out.$j >$t/stdout.$j 2>$t/err.$j; fi
        echo $? >>$t/err.$j
        tracekit "$@" -j ${j/0/1} >$t/pipe.$j 2>/dev/null
    done
    for j in "${js[@]:1}"; do
        cmp $t/out.$r $t/out.$j && cmp $t/err.$r $t/err.$j && cmp $t/stdout.$r $t/stdout.$j &&
            cmp $t/out.$r $t/pipe.$j || echo "$*: -j $j differs from -j $r"
    done
    cmp $t/out.$r $t/pipe.$r || echo "$*: -j $r differs on standard output"
    echo "== ${*//$D\//}: $(wc -c <$t/out.$r) bytes, $(grep -c '"kind":' $t/out.$r) events, cksum $(cksum <$t/out.$r | cut -d' ' -f1), $(wc -c <$t/stdout.$r) bytes on stdout"
    cat $t/err.$r
}
run convert --to json -m $D/bin/mtpool $M
run convert --to json $S
run convert --to json --thread 6261 $S
run convert --to json -m $D/bin/calltree $S
run convert --to json $D/pass/calltree-typed.fdr $D/pass/calltree-typed-be.fdr $D/pass/calltree.fdr
head -c 300 $t/out.$r; echo; tail -c 200 $t/out.$r
