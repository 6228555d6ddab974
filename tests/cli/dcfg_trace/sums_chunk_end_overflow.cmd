# ok_multi_row with the second chunk at PRECEDING_INSTR_COUNT 2^64 - 6: its end (+ INSTR_COUNT
# 15) does not fit in 64 bits. A located error for every command (info printed a wrapped end).
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
sed 's/\[ 17, 15, 3, 306, "-" \]/[ 18446744073709551610, 15, 3, 306, "-" ]/' \
    tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_multi_row.trace.json >"$t/sums.trace.json"
cd "$t"
tracekit check sums.trace.json; echo "check: exit $?"
tracekit info sums.trace.json | grep -v '^size'; echo "info: exit ${PIPESTATUS[0]}"
tracekit decode sums.trace.json; echo "decode: exit $?"
