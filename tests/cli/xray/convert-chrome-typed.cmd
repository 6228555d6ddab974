tracekit convert --to chrome tests/data/xray/pass/calltree-typed.fdr -m tests/data/xray/bin/calltree-typed | head -30
