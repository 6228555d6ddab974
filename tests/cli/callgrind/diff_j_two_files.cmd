# -j/--jobs reads each set of a diff of two sets on threads; a diff of two FILEs refuses it
# (exit 2) before it reads them, in every format whose diff has it, and --vs takes it
D=tests/data
tracekit diff -j 2 $D/callgrind/pass/demo-every.out $D/callgrind/pass/demo-every.out.1
echo "exit $?"
tracekit diff --jobs=4 $D/dcfg/pass/minimal.dcfg.json $D/dcfg/pass/minimal.dcfg.json
echo "exit $?"
tracekit diff $D/xray/pass/calltree.fdr $D/xray/pass/calltree.basic -j1
echo "exit $?"
tracekit diff -j 2 $D/callgrind/pass/demo-every.out --vs $D/callgrind/pass/demo-every.out.1 |
    sed -n 1,2p # (not head: tracekit killed by its SIGPIPE, exit 141, when it writes after head ends)
echo "exit $?"
