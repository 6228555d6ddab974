# after --, --vs is a FILE like any other: a file named --vs is the second of two FILEs, or
# one FILE of a set when a --vs before -- splits them; missing, it is a FILE that cannot be
# opened (exit 1), not the split of two sets
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/callgrind/pass
cp $D/demo-every.out.1 $t/--vs
cd $t
tracekit diff -n 1 -- $OLDPWD/$D/demo-every.out --vs | sed -n 1,2p
echo "exit $?"
tracekit diff -n 1 $OLDPWD/$D/demo-every.out --vs -- --vs | sed -n 1,2p
echo "exit $?"
tracekit diff -n 1 -- $OLDPWD/$D/demo-every.out $OLDPWD/$D/demo-every.out.1 --vs
echo "exit $?"
rm -- --vs
tracekit diff -n 1 -- $OLDPWD/$D/demo-every.out --vs
echo "exit $?"
