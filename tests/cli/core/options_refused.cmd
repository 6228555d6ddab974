# An option that another format has, given for a format whose command has it not, is refused
# by name, with the formats that have it (docs/cli.md, "The common options").
# Every convert has -t (--to), every annotate -I (--source-dir).
cg=tests/data/callgrind/pass/demo-default.out
x=tests/data/xray/pass/calltree.fdr
tracekit report --threshold 90 $x; echo "exit $?"
tracekit report -p 3 $cg; echo "exit $?"
tracekit report -top=3 --by file $x; echo "exit $?"
tracekit report --title T $cg; echo "exit $?"
tracekit annotate --threshold 5 tests/data/wet/pass/foo1.wet; echo "exit $?"
tracekit report --format xml $x; echo "exit $?"
tracekit convert -t csi tests/data/csi/pass/valid-other-order.PT | sed -n 1,2p
tracekit convert -t json tests/data/wet/pass/tiny.wet | { head -c 40; cat >/dev/null; }; echo
tracekit annotate -I tests/data/wet/pass tests/data/wet/pass/foo1.wet | sed -n 1,3p
# the options' errors name them
tracekit report -s Dr $cg; echo "exit $?"
tracekit report --show Dr $cg; echo "exit $?"
tracekit report --part 9 $cg; echo "exit $?"
tracekit report --focus nosuch $cg; echo "exit $?"
tracekit annotate --part 3 $cg; echo "exit $?"
tracekit diff -s Dr $cg $cg; echo "exit $?"
