tracekit check tests/data/xray/pass/mtpool-emutsc.fdr
