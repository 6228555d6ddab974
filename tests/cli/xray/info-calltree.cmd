tracekit info tests/data/xray/pass/calltree.fdr -m tests/data/xray/bin/calltree
