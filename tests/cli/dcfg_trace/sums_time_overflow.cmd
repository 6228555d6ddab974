# ok_multi_row with the second chunk at PRECEDING_INSTR_COUNT 2^64 - 6 and INSTR_COUNT 5 (its
# end fits) while its blocks hold 15 instructions in the real SDE DCFG: check --dcfg reports the
# INSTR_COUNT; what counts instructions from PRECEDING_INSTR_COUNT on refuses (it printed
# wrapped instruction counts); report and bbv count no absolute instruction and go on.
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
D=tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
sed 's/\[ 17, 15, 3, 306, "-" \]/[ 18446744073709551610, 5, 3, 306, "-" ]/' \
    tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_multi_row.trace.json >"$t/late.trace.json"
cd "$t"
tracekit check --dcfg "$OLDPWD/$D" late.trace.json; echo "check: exit $?"
tracekit decode --what calls --dcfg "$OLDPWD/$D" late.trace.json; echo "decode calls: exit $?"
for to in callgrind folded chrome; do
    tracekit convert --to $to --dcfg "$OLDPWD/$D" -o "out.$to" late.trace.json; echo "convert $to: exit $?"
done
tracekit convert --to bbv --dcfg "$OLDPWD/$D" late.trace.json; echo "convert bbv: exit $?"
tracekit report --dcfg "$OLDPWD/$D" late.trace.json >/dev/null; echo "report: exit $?"
