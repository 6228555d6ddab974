# --all, --node-threshold, --edge-threshold and --full-names choose what --to dot draws: with
# another target they are refused (usage error), in each format whose convert has them
tracekit convert --to folded --all tests/data/callgrind/pass/mutual.out; echo "exit $?"
tracekit convert --to callgrind --full-names tests/data/callgrind/pass/mutual.out; echo "exit $?"
tracekit convert --to folded --all tests/data/xray/pass/calltree.fdr -m tests/data/xray/bin/calltree; echo "exit $?"
tracekit convert --to chrome --node-threshold 1 tests/data/xray/pass/calltree.fdr -m tests/data/xray/bin/calltree; echo "exit $?"
tracekit convert --to folded --all --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json tests/data/dcfg_trace/pass/gen11.intel.trace.json; echo "exit $?"
tracekit convert --to callgrind --edge-threshold 1 --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json tests/data/dcfg_trace/pass/gen11.intel.trace.json; echo "exit $?"
# with --to dot each is taken
tracekit convert --to dot --all tests/data/callgrind/pass/mutual.out | grep -c label
tracekit convert --to dot --all tests/data/xray/pass/calltree.fdr -m tests/data/xray/bin/calltree | grep -c label
tracekit convert --to dot --all --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json tests/data/dcfg_trace/pass/gen11.intel.trace.json | grep -c label
