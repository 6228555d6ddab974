tracekit report tests/data/xray/pass/mtpool-wrapped.fdr -m tests/data/xray/bin/mtpool
