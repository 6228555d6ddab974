# One row policy for every table (docs/cli.md): a text table shows its first 20 rows and says how
# many more there are; -n N shows N, --all every one (JSON and CSV: every row unless -n)
cg=tests/data/callgrind/pass/demo-default.out
for args in "" "--inclusive" "--by file" "--tree caller"; do
    echo "report $args: $(tracekit report $args $cg | grep -c '(.*%)') rows, $(tracekit report $args $cg | grep 'more rows')"
done
echo "report --all: $(tracekit report --all $cg | grep -c '(.*%)') rows"
echo "report --inclusive --all: $(tracekit report --inclusive --all $cg | grep -c '(.*%)') rows"
echo "report --format csv: $(tracekit report --format csv $cg | wc -l) lines"
tracekit report -n 3 --all $cg
# the same in every format
tracekit report tests/data/xray/pass/calltree.fdr | tail -1
echo "xray report --all: $(tracekit report --all tests/data/xray/pass/calltree.fdr | wc -l) lines"
tracekit report tests/data/corpus/csi-thirdparty/v1.4.0/tests/multifile/multifile-O0.csi-static-FC.expected -n 2 | tail -1
tracekit report tests/data/folded/pass/mtpool-per-thread.folded -n 2 | tail -1
tracekit report -n 1 tests/data/wet/pass/foo1.wet | sed -n 3,6p
echo "dcfg report: $(tracekit report --table blocks tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 | wc -l) lines, --all: $(tracekit report --all --table blocks tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 | wc -l) lines"
