tracekit check tests/data/xray/pass/mtpool.basic
