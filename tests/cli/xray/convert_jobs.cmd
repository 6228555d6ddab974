# convert -j N of several XRay traces to folded, svg, callgrind and dot: each trace read into
# its partial on one of N threads, the partials merged in the order of the FILEs; the same
# bytes on each stream (and in each -o file), and the same exit status, with -j 1 (the traces
# read one after the other as one stream), -j 2, -j 4 and without -j, over traces cut short
# (their warnings in the order of the FILEs), a map (its unknown ids), --thread, per thread;
# what fails (two clocks, a damaged trace, a missing one) says so as -j 1 says it; the bytes
# counted with the checkout's directory taken out of them (the traces' paths are absolute)
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray
S="$D/pass/mtpool.fdr $D/fail/mtpool-cut.fdr $D/pass/calltree.fdr $D/pass/mtpool.basic
   $D/fail/calltree-cut.basic $D/pass/mtpool-wrapped.fdr $D/pass/calltree-typed.fdr"
n=0
# -j 1 is the reference; under ThreadSanitizer, which leaves it out (tests/run.sh), -j 2 is,
# checked against what the golden has of the other builds' -j 1 (checksums, stderr, exit status)
js=(${TK_WITH_J1-1} 2 4 ${TK_WITHOUT_J-0}) r=${js[0]}
run() { # the command with -j 1, 2, 4 and without -j: the same bytes and status
    n=$((n + 1))
    for j in "${js[@]}"; do
        mkdir $t/$n.$j
        if [ $j = 0 ]; then (cd $t/$n.$j && tracekit "$@" >out 2>err); else
            (cd $t/$n.$j && tracekit "$@" -j $j >out 2>err); fi
        echo $? >>$t/$n.$j/err
    done
    for j in "${js[@]:1}"; do
        diff -r $t/$n.$r $t/$n.$j >/dev/null || echo "$*: -j $j differs from -j $r"
    done
    echo "== ${*//$PWD\/$D\//}: $(cat $t/$n.$r/* | sed "s|$PWD/||g" | wc -c) bytes in $(ls $t/$n.$r | wc -l) files, cksum $(cat $t/$n.$r/* | sed "s|$PWD/||g" | cksum | cut -d' ' -f1)"
    sed "s|$PWD/$D/||g; s|$PWD/||g" $t/$n.$r/err
}
A=$(for f in $S; do echo $PWD/$f; done)
run convert --to folded $A
run convert --to folded --per-thread --weight calls $A
run convert --to svg --title "seven traces" $A -o all.svg
run convert --to callgrind -m $PWD/$D/bin/mtpool $A
run convert --to callgrind --per-thread $A -o threads.cg
run convert --to dot --per-thread --thread 6261 $A -o calls.dot
run convert --to folded $PWD/$D/pass/mtpool.fdr $PWD/$D/pass/mtpool-emutsc.fdr $A
run convert --to dot $A $PWD/$D/fail/unknown-record-type.basic $PWD/$D/pass/calltree.fdr
run convert --to callgrind $A $PWD/$D/missing.fdr
# an -o file that is there (no --force): refused before any trace is read, with -j as without
touch $t/there.folded
for j in 1 2; do
    tracekit convert --to folded -j $j $A -o $t/there.folded 2>$t/there.err
    echo "-j $j: exit $?, $(sed "s|$t/||" $t/there.err)"
done
