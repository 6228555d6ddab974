# convert --to chrome|json -j N of several XRay traces where one fails: with -j 3 as with -j 1,
# the error of the first trace in the order of the FILEs that fails (a damaged record after the
# events before it, a header that is not a trace's, a missing file, another clock), the same
# exit status, no -o file, and on standard output the same bytes (what -j 1 writes before the
# error: the events before it, for chrome in whole blocks of 64 KiB)
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray
G="$D/pass/mtpool.fdr $D/pass/mtpool.basic $D/pass/mtpool-wrapped.fdr"
# -j 1 is the reference; under ThreadSanitizer, which leaves it out (tests/run.sh), -j 3 is,
# checked against the bytes (their checksum) the golden has of the other builds' -j 1
js=(${TK_WITH_J1-1} 3) r=${js[0]}
run() { # the command with -j 1 and -j 3: the same bytes and status, and no -o file
    rm -f $t/*
    for j in "${js[@]}"; do
        tracekit "$@" -j $j -o $t/out.$j >/dev/null 2>$t/err.$j
        echo $? >>$t/err.$j
        tracekit "$@" -j $j >$t/stdout.$j 2>/dev/null
        [ -e $t/out.$j ] && echo "$*: -j $j wrote -o"
    done
    for j in "${js[@]:1}"; do
        cmp $t/err.$r $t/err.$j | sed "s|$t/||g"
        cmp $t/stdout.$r $t/stdout.$j | sed "s|$t/||g"
    done
    echo "== ${*//$D\//}: $(wc -c <$t/stdout.$r) bytes on stdout, cksum $(cksum <$t/stdout.$r | cut -d' ' -f1)"
    sed "s|$t/||g" $t/err.$r
}
for to in chrome json; do
    run convert --to $to -m $D/bin/mtpool $G $D/fail/unknown-record-type.basic $G
    run convert --to $to $G $G $D/fail/tsc-wrap-storm.fdr $G $D/fail/extents-past-end.fdr $G
    run convert --to $to $G $D/fail/version-9.fdr $G
    run convert --to $to $G $D/missing.fdr $G
    run convert --to $to $G $D/pass/mtpool-emutsc.fdr $G
done
