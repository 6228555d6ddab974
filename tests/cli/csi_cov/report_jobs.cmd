# report -j N, annotate -j N and dump -j N of several CSI coverage files (each FILE on its own):
# N at once in N processes (each over a range of them), their outputs printed in their order;
# the same bytes on each stream and exit status with -j 1 and -j 4 and without -j, the output
# stopping at a damaged file in the middle, what came after it not printed; and check -j N (each
# FILE in a process of its own, as for DCFG and XRay), which goes on
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/csi_cov
CC="$D/elf/definer.CC.txt $D/elf/user.CC.txt $D/pass/cc-clones-share-array.txt
    $D/elf/definer-cov.o $D/elf/multifile-cov.exe $D/core/tiny.CC.txt"
BBC="$D/elf/definer.BBC.txt $D/elf/user.BBC.txt $D/fail/bbc-bad-line.txt $D/elf/definer-cov.o"
FC="$D/elf/definer.FC.txt $D/elf/user.FC.txt $D/fail/fc-empty-name.txt $D/elf/definer-fc.o"
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
    echo "== ${*//$D\//}: $(wc -l <$t/$n.1.out) lines of output"
    cat $t/$n.1.err
}
run report --from csi-cc $CC
run report --from csi-bbc --format json $BBC
run annotate --from csi-bbc $BBC
run dump --from csi-fc $FC
run report --from csi-cc --sort nothing $CC
run check --from csi-bbc $BBC $D/fail/bbc-empty-line-field.txt # check goes on after a failure
