# diff of DCFG-Trace traces with --vs: one trace a side is the diff of two; several are refused
# (exit 2), saying why (traces have no merge)
D=tests/data/dcfg_trace/pass
tracekit diff $D/gen11.level0.trace.json --vs $D/gen11.level9.trace.json
echo "exit $?"
tracekit diff $D/gen11.level0.trace.json --vs $D/gen11.level9.trace.json $D/gen11.level0.trace.json
echo "exit $?"
