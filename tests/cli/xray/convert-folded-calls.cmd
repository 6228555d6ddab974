tracekit convert --to folded --weight=calls --per-thread tests/data/xray/pass/mtpool.fdr -m tests/data/xray/bin/mtpool
