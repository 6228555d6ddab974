tracekit info -v tests/data/xray/pass/mtpool.basic
