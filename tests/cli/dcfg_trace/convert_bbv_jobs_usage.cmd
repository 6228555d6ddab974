# convert -j: --jobs decodes for --to bbv, callgrind, dot, folded and svg (not chrome), and must be 1..256 (usage errors, exit 2)
P=tests/data/dcfg_trace/pass
tracekit convert --to chrome --dcfg $P/gen11.dcfg.json -j 2 $P/gen11.level0.trace.json; echo "exit $?"
tracekit convert --to bbv --dcfg $P/gen11.dcfg.json -j 0 $P/gen11.level0.trace.json; echo "exit $?"
tracekit convert --to bbv --dcfg $P/gen11.dcfg.json -j 257 $P/gen11.level0.trace.json; echo "exit $?"
tracekit convert --to callgrind --dcfg $P/gen11.dcfg.json -j 0 $P/gen11.level0.trace.json; echo "exit $?"
tracekit convert --to folded --dcfg $P/gen11.dcfg.json -j 257 $P/gen11.level0.trace.json; echo "exit $?"
