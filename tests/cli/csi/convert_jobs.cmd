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
# -j 1 is the reference; under ThreadSanitizer, which leaves it out (tests/run.sh), -j 2 is,
# checked against what the golden has of the other builds' -j 1 (checksums, stderr, exit status)
js=(${TK_WITH_J1-1} 2 4 ${TK_WITHOUT_J-0}) r=${js[0]}
run() { # the command with -j 1, 2, 4 and without -j: the same bytes and status
    n=$((n + 1))
    for j in "${js[@]}"; do
        mkdir $t/$n.$j
        [ -n "$THERE" ] && echo there >$t/$n.$j/out.txt
        if [ $j = 0 ]; then (cd $t/$n.$j && tracekit "$@" >stdout 2>stderr); else
            (cd $t/$n.$j && tracekit "$@" -j $j >stdout 2>stderr); fi
        echo $? >>$t/$n.$j/stderr
    done
    for j in "${js[@]:1}"; do
        diff -r $t/$n.$r $t/$n.$j >/dev/null || echo "$*: -j $j differs from -j $r" | sed "s|$PWD/||g"
    done
    echo "== $*: $(wc -l <$t/$n.$r/stdout) lines of output, cksum $(sum_of $t/$n.$r/stdout); $(ls $t/$n.$r | tr '\n' ' ')" |
        sed "s|$PWD/$D/||g; s|$PWD/||g"
    sed "s|$PWD/$D/||g; s|$PWD/||g" $t/$n.$r/stderr
    [ -f $t/$n.$r/out.txt ] && echo "out.txt: $(wc -l <$t/$n.$r/out.txt) lines, cksum $(sum_of $t/$n.$r/out.txt)"
    return 0
}
sum_of() { sed "s|$PWD/||g" "$1" | cksum | cut -d' ' -f1; } # the checkout's directory left out
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
