# check -j N: DCFGs and XRay traces (whose check treats each FILE on its own) checked N at once,
# each in a process of its own, their verdicts and errors printed in their order: the same
# bytes and exit status with -j 1 and -j 4 and without -j, over good, damaged and missing FILEs
# mixed with a Callgrind profile (read in one process); a usage error met at the third FILE
# stops both there; the verdicts as -j 1 prints them
t=$(mktemp -d); trap 'rm -rf $t' EXIT
F="tests/data/dcfg/pass/minimal.dcfg.json tests/data/dcfg/fail/dangling-edge.dcfg.json
   tests/data/xray/pass/mtpool.fdr tests/data/callgrind/pass/gzip.out
   tests/data/xray/fail/truncated-record.fdr $t/missing.dcfg.json
   tests/data/dcfg/pass/recursion.dcfg.json tests/data/dcfg/merge/hello-split.dcfg.json"
for j in 1 4; do
    tracekit check -j $j $F >$t/$j.out 2>$t/$j.err; echo $? >$t/$j.rc
done
tracekit check $F >$t/0.out 2>$t/0.err; echo $? >$t/0.rc
for j in 4 0; do
    cmp -s $t/1.out $t/$j.out && cmp -s $t/1.err $t/$j.err && cmp -s $t/1.rc $t/$j.rc ||
        echo "-j $j differs from -j 1"
done
X=tests/data/xray/pass/mtpool.fdr
for j in 1 4; do
    tracekit check -j $j -m tests/data/xray/bin/mtpool $X $X tests/data/dcfg/pass/minimal.dcfg.json \
        $X $X >$t/u$j.out 2>$t/u$j.err; echo $? >>$t/u$j.err
done
cmp -s $t/u1.err $t/u4.err && cmp -s $t/u1.out $t/u4.out || echo "the usage error differs"
sed "s|$t/||" $t/1.err; cat $t/1.rc $t/u4.err
