# diff --format folded A... --vs B... of XRay traces: each side's stacks are those convert --to
# folded writes of its traces (chained), so the lines are difffolded.pl's diff of the two sides'
# folded files (computed here from convert's output: every stack of A then the new ones of B,
# in order of first appearance, a stack of one side 0 in the other), by time and by calls,
# with a map and with --thread; -j 1, 2 and 4 give the same bytes; one trace a side is the
# diff of two traces; a trace cut short: its warning, A's traces' warnings before B's
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray/pass
M="-m tests/data/xray/bin/mtpool"
A="$D/mtpool.fdr $D/mtpool-wrapped.fdr $D/mtpool.basic"
B="$D/mtpool.basic $D/mtpool.fdr"
# difffolded FILE_A FILE_B: the lines "stack A B" of two folded files
difffolded() {
    python3 - "$1" "$2" <<'PY'
import sys
rows, order = {}, []
for side, path in enumerate(sys.argv[1:3]):
    for line in open(path):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        if stack not in rows:
            rows[stack] = [0, 0]
            order.append(stack)
        rows[stack][side] += int(count)
sys.stdout.write("".join("%s %d %d\n" % (s, rows[s][0], rows[s][1]) for s in order))
PY
}
for o in "" "$M" "--weight calls $M" "--thread 6263 --thread 6292 --thread 6279 $M"; do
    tracekit convert --to folded -j 1 $o $A >$t/a 2>/dev/null
    tracekit convert --to folded -j 1 $o $B >$t/b 2>/dev/null
    difffolded $t/a $t/b >$t/want
    tracekit diff --format folded -j 1 $o $A --vs $B >$t/d1 2>/dev/null
    cmp $t/want $t/d1 && echo "${o:-(no options)}: the diff of convert's folded files ($(wc -l <$t/d1) stacks)"
    for j in 2 4; do
        tracekit diff --format folded -j $j $o $A --vs $B 2>/dev/null | cmp - $t/d1 || echo "-j $j differs"
    done
done
tracekit diff --format folded $M $A --vs $B | sed -n 1,4p
tracekit diff --format folded $M $A --vs $B | awk '{ a += $(NF - 1); b += $NF } END { print "sums", a, b, "rows", NR }'
tracekit diff --format folded $M $D/mtpool.basic --vs $D/mtpool.fdr >$t/one
tracekit diff --format folded $M $D/mtpool.basic $D/mtpool.fdr | cmp - $t/one && echo "one a side: the diff of two traces"
for j in 1 4; do
    tracekit diff --format folded -j $j $A tests/data/xray/fail/mtpool-cut.fdr --vs $D/mtpool.basic tests/data/xray/fail/truncated.basic | wc -l
    echo "-j $j: exit $?"
done
