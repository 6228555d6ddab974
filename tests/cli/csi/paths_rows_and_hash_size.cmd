# One option, one meaning (docs/cli.md): the paths listed (paths --list, --profile) or counted
# (annotate) per function are a row count, -n/--top N with --all; csi-cc's path limit, over which
# it leaves a function uninstrumented, is report's --hash-size (csi-cc's -hash-size). --limit,
# which meant both, is gone.
L=tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
tracekit paths --list -n 2 --function main $L
tracekit paths --list --all --function main $L | tail -4
tracekit paths --list --format json -n 1 --function main $L
tracekit annotate -n 2 --function main $L
tracekit annotate --all --function main $L | sed -n 1,1p
tracekit paths tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 \
    --profile tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json -n 1 | tail -3
tracekit report --hash-size 3 $L
tracekit report -v $L | sed -n 1,2p
# refused: --all with -n; --limit (no longer an option); --hash-size elsewhere; --all where
# nothing is listed (--decode, --state)
tracekit paths --list -n 2 --all $L; echo "exit $?"
tracekit paths --list --limit 2 $L; echo "exit $?"
tracekit annotate --hash-size 3 $L; echo "exit $?"
tracekit paths --decode 1 --all $L; echo "exit $?"
# report --format html draws each function's paths from paths --list --format json -n 500
t=$(mktemp -d); trap 'rm -rf $t' EXIT
tracekit report --format html -o $t/p.html $L &&
    grep -o '"function": "[a-z]*", "paths": [0-9]*, "more": [0-9]*' $t/p.html
