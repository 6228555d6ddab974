# --dcfg: an error the DCFG's linking finds is located (it was not), and a pipe still reads
T=tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json
tracekit check --dcfg tests/data/dcfg/fail/dangling-edge.dcfg.json "$T"; echo "exit $?"
tracekit check --dcfg tests/data/dcfg/fail/sum-out-edges-overflow.dcfg.json "$T"; echo "exit $?"
tracekit check --dcfg <(bzcat tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2) "$T"; echo "exit $?"
