tracekit convert --to callgrind tests/data/xray/pass/calltree.fdr -m tests/data/xray/bin/calltree | sed -n 1,40p
