# convert -j N of several CSI files (one output of every FILE): each FILE read and its text made
# (--to csi, --renumber) or its functions counted (--to dot) on one of N threads, written in the
# FILEs' order; the same bytes on each stream and in the -o file, and the same exit status, with
# -j 1, -j 2, -j 4 and without -j: the dot graph cut at 100 blocks in the second or the third
# FILE (its cluster numbers going on across the FILEs, the note counting every FILE), --path,
# --function, --all; a damaged FILE, an ELF file without .debug_PT and a missing FILE in the
# middle (what -j 1 writes before the error, then the error; nothing written to -o); an -o file
# that is there, with and without --force; usage errors
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/csi
G="$D/pass/valid-other-order.PT $D/states/variants.PT $D/elf/main-pt.o $D/elf/foo-pt.o
   $D/pass/generated-200.PT"
C2="$D/pass/valid-other-order.PT $D/pass/generated-200.PT $D/states/variants.PT"
C3="$D/elf/main-pt.o $D/elf/foo-pt.o $D/pass/generated-200.PT $D/states/variants.PT"
B="$D/pass/valid-other-order.PT $D/states/variants.PT $D/fail/missing-dollar.txt
   $D/elf/foo-pt.o $D/pass/generated-200.PT"
E="$D/elf/main-pt.o $D/elf/no-pt.o $D/elf/foo-pt.o"
M="$D/elf/main-pt.o $D/pass/generated-200.PT $D/missing.PT $D/elf/foo-pt.o"
n=0
run() { # the command with -j 1, 2, 4 and without -j: the same bytes and status
    n=$((n + 1))
    for j in 1 2 4 ${TK_WITHOUT_J-0}; do
        mkdir $t/$n.$j
        [ -n "$THERE" ] && echo there >$t/$n.$j/out.txt
        if [ $j = 0 ]; then (cd $t/$n.$j && tracekit "$@" >stdout 2>stderr); else
            (cd $t/$n.$j && tracekit "$@" -j $j >stdout 2>stderr); fi
        echo $? >>$t/$n.$j/stderr
    done
    for j in 2 4 ${TK_WITHOUT_J-0}; do
        diff -r $t/$n.1 $t/$n.$j >/dev/null || echo "$*: -j $j differs from -j 1" | sed "s|$PWD/||g"
    done
    echo "== $*: $(wc -l <$t/$n.1/stdout) lines of output; $(ls $t/$n.1 | tr '\n' ' ')" |
        sed "s|$PWD/$D/||g; s|$PWD/||g"
    sed "s|$PWD/$D/||g; s|$PWD/||g" $t/$n.1/stderr
    [ -f $t/$n.1/out.txt ] && echo "out.txt: $(wc -l <$t/$n.1/out.txt) lines"
    return 0
}
A() { for f in "$@"; do echo $PWD/$f; done; }
run convert --to csi $(A $G)
run convert --to csi --renumber $(A $G)
run convert --to csi --function main $(A $G)
run convert --to dot $(A $G)
run convert --to dot $(A $C2)
run convert --to dot --path 0 $(A $C3)
run convert --to dot --path 1 $(A $C2)
run convert --to dot --function main --path 1 $(A $G)
run convert --to dot --all $(A $C2)
run convert --to dot --function main $(A $G)
run convert --to csi $(A $B)
run convert --to dot $(A $B)
run convert --to csi --renumber $(A $E)
run convert --to dot --all $(A $E)
run convert --to csi $(A $M)
run convert --to csi $(A $G) -o out.txt
run convert --to csi $(A $B) -o out.txt
THERE=1 run convert --to csi $(A $G) -o out.txt
THERE=1 run convert --to csi $(A $G) -o out.txt --force
THERE=1 run convert --to dot $(A $B) -o out.txt --force
run convert --to csi --all $(A $G)
for j in 0 257; do
    tracekit convert --to csi $G -j $j >$t/usage.out 2>$t/usage.err
    echo "-j $j: exit $?, $(wc -c <$t/usage.out) bytes, $(cat $t/usage.err)"
done
