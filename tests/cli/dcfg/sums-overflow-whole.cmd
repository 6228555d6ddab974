# The real SDE DCFG with the counts of block 31's two out-edges at 2^64 - 1 (one as a JSON
# integer, one as an upper-case hex string): their sum and thread 0's instruction count do
# not fit in 64 bits. check reports each located; report refuses (it printed a wrapped thread
# total, exit 0); so do convert and dump.
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
bzcat tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 |
    sed -e 's/^          \[ 1193, 31, 32, 18, \[ 1 \] \]/          [ 1193, 31, 32, 18, [ 18446744073709551615 ] ]/' \
        -e 's/^          \[ 303, 31, 30, 13, \[ 10 \] \]/          [ 303, 31, 30, 13, [ "0xFFFFFFFFFFFFFFFF" ] ]/' >"$t/w.dcfg.json"
cd "$t"
tracekit check w.dcfg.json; echo "check: exit $?"
tracekit report w.dcfg.json; echo "report: exit $?"
tracekit convert --to callgrind -o w.cg w.dcfg.json; echo "convert: exit $?"
tracekit dump w.dcfg.json >/dev/null; echo "dump: exit $?"
