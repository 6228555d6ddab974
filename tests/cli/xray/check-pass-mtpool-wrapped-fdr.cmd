tracekit check tests/data/xray/pass/mtpool-wrapped.fdr
