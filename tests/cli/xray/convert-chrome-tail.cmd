tracekit convert --to chrome tests/data/xray/pass/mtpool.fdr -m tests/data/xray/bin/mtpool | tail -8
