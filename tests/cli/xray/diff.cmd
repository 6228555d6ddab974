# per function: calls, total and median time in each trace, by the change of the total
tracekit diff --instr-map tests/data/xray/bin/calltree tests/data/xray/pass/calltree.fdr tests/data/xray/pass/calltree.basic
# the A and B columns are each trace's report (calls and sums of fib)
tracekit report --instr-map tests/data/xray/bin/calltree tests/data/xray/pass/calltree.fdr | awk '$NF == "fib" { print "report a:", $2, $9 }'
tracekit report --instr-map tests/data/xray/bin/calltree tests/data/xray/pass/calltree.basic | awk '$NF == "fib" { print "report b:", $2, $9 }'
tracekit diff --format json --top 2 --instr-map tests/data/xray/bin/calltree tests/data/xray/pass/calltree.fdr tests/data/xray/pass/calltree.basic
tracekit diff --format csv --top 2 tests/data/xray/pass/calltree.fdr tests/data/xray/pass/calltree.basic
