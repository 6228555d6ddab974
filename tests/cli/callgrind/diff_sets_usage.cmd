# --vs among the operands: at most once, each side non-empty (exit 2); before -- too (the
# FILEs after --); three files without --vs are refused as before
D=tests/data/callgrind/pass
tracekit diff $D/demo-every.out --vs
echo "exit $?"
tracekit diff --vs $D/demo-every.out
echo "exit $?"
tracekit diff $D/demo-every.out --vs $D/demo-every.out.1 --vs $D/demo-every.out
echo "exit $?"
tracekit diff $D/demo-every.out $D/demo-every.out.1 $D/demo-every.out
echo "exit $?"
tracekit diff --vs=x $D/demo-every.out $D/demo-every.out.1
echo "exit $?"
tracekit diff -n 1 $D/demo-every.out $D/demo-every.out.1 --vs -- $D/demo-every.out | sed -n 1,2p
