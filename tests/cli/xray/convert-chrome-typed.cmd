tracekit convert --to chrome tests/data/xray/pass/calltree-typed.fdr -m tests/data/xray/bin/calltree-typed | sed -n 1,30p
