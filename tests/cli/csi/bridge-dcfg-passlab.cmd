set -e; t=$(mktemp -d); trap 'rm -rf $t' EXIT
tracekit convert --to csi -o $t/whole.PT tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
tracekit check -v $t/whole.PT 2>&1 | sed "s|$t/||"
tracekit report --top 8 $t/whole.PT | sed "s|$t/||"
tracekit paths $t/whole.PT --function main --decode 0 | sed "s|$t/||"
