# convert -j N of several CSI coverage files (one output of every FILE): each FILE read and its
# text made on one of N threads, written in the FILEs' order; the same bytes on each stream and
# in the -o file, and the same exit status, with -j 1, -j 2, -j 4 and without -j, in both forms
# of the lines and with --function; a damaged FILE, an ELF file without the section and a missing
# FILE in the middle (what -j 1 writes before the error, then the error; nothing written to -o);
# an -o file that is there, with and without --force; a usage error
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/csi_cov
CC="$D/elf/definer.CC.txt $D/elf/user.CC.txt $D/pass/cc-clones-share-array.txt
    $D/elf/definer-cov.o $D/elf/multifile-cov.exe $D/core/tiny.CC.txt"
BBC="$D/elf/definer.BBC.txt $D/elf/user.BBC.txt $D/fail/bbc-bad-line.txt $D/elf/definer-cov.o"
FC="$D/elf/definer.FC.txt $D/elf/user.FC.txt $D/fail/fc-empty-name.txt $D/elf/definer-fc.o"
NS="$D/elf/definer.FC.txt tests/data/csi/elf/no-pt.o $D/elf/user.FC.txt"
MI="$D/elf/definer.CC.txt $D/elf/user.CC.txt $D/missing.CC.txt $D/elf/definer-cov.o"
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
run convert --from csi-cc --to csi-cc $(A $CC)
run convert --from csi-cc --to csi-cc --form plain $(A $CC)
run convert --from csi-cc --to csi-cc --function main $(A $CC)
run convert --from csi-bbc --to csi-bbc --form labels $(A $BBC)
run convert --from csi-fc --to csi-fc $(A $FC)
run convert --from csi-fc --to csi-fc $(A $NS)
run convert --from csi-cc --to csi-cc $(A $MI)
run convert --from csi-cc --to csi-cc $(A $CC) -o out.txt
run convert --from csi-bbc --to csi-bbc $(A $BBC) -o out.txt
THERE=1 run convert --from csi-cc --to csi-cc $(A $CC) -o out.txt
THERE=1 run convert --from csi-cc --to csi-cc $(A $CC) -o out.txt --force
THERE=1 run convert --from csi-bbc --to csi-bbc $(A $BBC) -o out.txt --force
run convert --from csi-cc --to csi-fc $(A $CC)
