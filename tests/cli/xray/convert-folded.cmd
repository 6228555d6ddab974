tracekit convert --to folded tests/data/xray/pass/calltree.fdr -m tests/data/xray/bin/calltree | sed -n 1,30p
