# report -j N, annotate -j N and dump -j N of several CSI files (each FILE on its own): N at
# once in N processes (each over a range of them), their outputs printed in their order; the
# same bytes on each stream and exit status with -j 1 and -j 4 and without -j, the output
# stopping at a damaged file (or an ELF file without .debug_PT) in the middle, what came after
# it not printed; and check -j N (each FILE in a process of its own, as for DCFG and XRay),
# which goes on
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/csi
G="$D/pass/valid-other-order.PT $D/states/variants.PT $D/elf/main-pt.o $D/elf/foo-pt.o
   $D/pass/generated-200.PT"
B="$D/pass/valid-other-order.PT $D/states/variants.PT $D/fail/missing-dollar.txt
   $D/elf/foo-pt.o $D/pass/generated-200.PT"
E="$D/elf/main-pt.o $D/elf/no-pt.o $D/elf/foo-pt.o"
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
run report --top 3 $G
run report --format csv $B
run annotate -n 2 $B
run dump $B
run report --format json $E
run check $B $E # check goes on after a FILE that fails
