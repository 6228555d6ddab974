# check FILE... checks each FILE in its own format, one verdict each in their order, and exits
# with the worst status: a Callgrind profile, a DCFG, an XRay trace, a file that cannot be
# opened, a damaged WET trace, a DCFG-Trace, a file of no known format, and an empty one (no
# format to tell: an error of its verdict, as an unopened file's)
t=$(mktemp -d); trap 'rm -rf $t' EXIT
printf 'garbage\n' > $t/junk; : > $t/empty
tracekit check tests/data/callgrind/pass/gzip.out tests/data/dcfg/pass/minimal.dcfg.json \
    tests/data/xray/pass/calltree.fdr $t/missing tests/data/wet/fail/count_values_mismatch.wet \
    tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json $t/junk $t/empty 2>&1 |
    sed "s|$t/||"
echo "exit $?"
tracekit check tests/data/dcfg/pass/minimal.dcfg.json tests/data/xray/pass/calltree.fdr; echo "exit $?"
tracekit check $t/empty 2>&1 | sed "s|$t/||"
# the FILEs of one format given one after the other are read together, as check of that format
# alone reads them: a Callgrind run's parts
tracekit check tests/data/callgrind/pass/threads-sep.out-01 tests/data/callgrind/pass/threads-sep.out-02 \
    tests/data/xray/pass/calltree.basic
