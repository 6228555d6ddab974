tracekit check -v tests/data/xray/pass/mtpool.basic
