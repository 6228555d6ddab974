# diff --format folded and svg A... --vs B... with a damaged trace on one side: its located
# error (as convert --to folded of that side says it), exit 1, no -o file, with -j 1 and -j 4
# (the traces read on threads, then again chained to say what failed); a trace cut short
# before the damaged one: the error alone, no warning (as convert); a side of two clocks:
# convert's refusal
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray/pass
F=tests/data/xray/fail
A="$D/mtpool.fdr $D/mtpool.basic"
for j in 1 4; do
    for fmt in folded svg; do
        tracekit diff --format $fmt -j $j -o $t/out $A --vs $D/mtpool.fdr $F/extents-past-end.fdr $D/mtpool.basic
        echo "-j $j --format $fmt: exit $?, -o written: $(ls $t | grep -c out)"
    done
    tracekit diff --format folded -j $j -o $t/out $F/mtpool-cut.fdr $F/unknown-record-type.basic --vs $A
    echo "-j $j, damaged in A after one cut short: exit $?, -o written: $(ls $t | grep -c out)"
    tracekit diff --format folded -j $j -o $t/out $A --vs $D/mtpool.fdr $D/calltree-emutsc.fdr
    echo "-j $j, two clocks in B: exit $?, -o written: $(ls $t | grep -c out)"
done
tracekit convert --to folded -j 1 $D/mtpool.fdr $F/extents-past-end.fdr $D/mtpool.basic >/dev/null
echo "convert of that side: exit $?"
