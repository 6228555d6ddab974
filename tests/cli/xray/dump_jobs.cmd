# dump -j N of several XRay traces (each FILE on its own): N at once in N processes, their
# outputs printed in their order; the same bytes on each stream and exit status with -j 1,
# -j 4 and without -j; a trace cut short (a warning) does not stop them, a damaged one in the
# middle does (what came after it not printed, as the run one after the other stops), and so
# does a FILE that cannot be opened
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray
G="$D/pass/calltree.fdr $D/pass/calltree.basic $D/pass/calltree-typed-be.fdr"
B="$D/pass/calltree.fdr $D/pass/calltree.basic $D/fail/truncated-record.fdr
   $D/fail/unknown-function-kind.fdr $D/pass/calltree-emutsc.fdr"
M="$D/pass/calltree.fdr $t/missing.fdr $D/pass/calltree.basic"
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
run dump $G
run dump $B
run dump $M
