# convert --to dot -j N of several CSI files drawing every selected function (--all,
# --function): each FILE's functions counted on one of N threads, then its dot text made on
# one of them with its cluster numbers after those of the FILEs before it, written in the
# FILEs' order; the same bytes (their checksum here) on each stream and in the -o file, and the
# same exit status, with -j 1, -j 2, -j 3 and without -j: --all, --all --function, --function
# with --path; a damaged FILE in the middle (found by the count) and one whose first function
# is good, an ELF file without .debug_PT, a missing FILE, a path that a function lacks (found
# as its text is made): what -j 1 writes before the error, then the error, nothing written to
# -o; standard input among the FILEs (read one after the other)
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/csi
G="$D/pass/valid-other-order.PT $D/states/variants.PT $D/elf/main-pt.o $D/elf/foo-pt.o
   $D/pass/generated-200.PT"
cat $D/pass/valid-other-order.PT $D/fail/missing-dollar.txt >$t/half-bad.PT
B="$D/pass/generated-200.PT $D/states/variants.PT $D/fail/missing-dollar.txt $D/elf/foo-pt.o"
H="$D/states/variants.PT $D/pass/generated-200.PT $t/half-bad.PT $D/elf/foo-pt.o"
E="$D/elf/main-pt.o $D/pass/generated-200.PT $D/elf/no-pt.o $D/elf/foo-pt.o"
M="$D/elf/foo-pt.o $D/pass/generated-200.PT $D/missing.PT $D/elf/main-pt.o"
R=$PWD
n=0
# -j 1 is the reference; under ThreadSanitizer, which leaves it out (tests/run.sh), -j 2 is,
# checked against what the golden has of the other builds' -j 1 (checksums, stderr, exit status)
js=(${TK_WITH_J1-1} 2 3 ${TK_WITHOUT_J-0}) r=${js[0]}
run() { # the command with -j 1, 2, 3 and without -j: the same bytes and status
    n=$((n + 1))
    for j in "${js[@]}"; do
        mkdir $t/$n.$j
        if [ $j = 0 ]; then (cd $t/$n.$j && tracekit "$@" <$R/$D/elf/foo-pt.o >stdout 2>stderr)
        else (cd $t/$n.$j && tracekit "$@" -j $j <$R/$D/elf/foo-pt.o >stdout 2>stderr); fi
        echo $? >>$t/$n.$j/stderr
    done
    for j in "${js[@]:1}"; do
        diff -r $t/$n.$r $t/$n.$j >/dev/null || echo "$*: -j $j differs from -j $r" | sed "s|$PWD/||g"
    done
    echo "== $*: $(wc -l <$t/$n.$r/stdout) lines, cksum $(cksum <$t/$n.$r/stdout); $(ls $t/$n.$r | tr '\n' ' ')" |
        sed "s|$PWD/$D/||g; s|$PWD/||g; s|$t/||g"
    sed "s|$PWD/$D/||g; s|$PWD/||g; s|$t/||g" $t/$n.$r/stderr
    [ -f $t/$n.$r/out.dot ] && echo "out.dot: $(wc -l <$t/$n.$r/out.dot) lines, cksum $(cksum <$t/$n.$r/out.dot)"
    return 0
}
A() { for f in "$@"; do case $f in /*) echo $f ;; *) echo $PWD/$f ;; esac; done; }
run convert --to dot --all $(A $G)
run convert --to dot --all $(A $G) -o out.dot
run convert --to dot --all --function main $(A $G)
run convert --to dot --function fn_1 $(A $G $G)
run convert --to dot --function main --path 0 $(A $G)
run convert --to dot --function main --path 1 $(A $G)
run convert --to dot --all $(A $B)
run convert --to dot --all $(A $H)
run convert --to dot --all $(A $H) -o out.dot
run convert --to dot --function f $(A $H)
run convert --to dot --all $(A $E)
run convert --to dot --all $(A $M)
run convert --to dot --all $(A $M) -o out.dot
run convert --to dot --all $(A $D/pass/generated-200.PT) - $(A $D/states/variants.PT)
# the cluster numbers go on across the FILEs: 0, 1, ... in the order of the FILEs
tracekit convert --to dot --all $G $G -j 3 | sed -n 's/^  subgraph cluster_f\([0-9]*\) .*/\1/p' |
    awk '$1 != NR - 1 { print "cluster " NR " is f" $1 } END { print NR " clusters" }'
