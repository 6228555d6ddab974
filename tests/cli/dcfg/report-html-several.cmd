# report --format html of several DCFGs (and CSI files): their report is each FILE's own, one
# JSON document each, and a page shows one: a usage error naming the count, no -o written;
# one FILE makes its page
t=$(mktemp -d); trap 'rm -rf $t' EXIT
tracekit report --format html -o $t/p.html tests/data/dcfg/pass/generated-hard.dcfg.json tests/data/dcfg/pass/generated-no-routines.dcfg.json
echo "exit $?"; ls $t
tracekit report --format html -o $t/c.html tests/data/csi/pass/valid-other-order.PT tests/data/csi/states/variants.PT
echo "exit $?"; ls $t
tracekit report --format html -o $t/p.html tests/data/dcfg/pass/generated-hard.dcfg.json
echo "exit $?"; ls $t
