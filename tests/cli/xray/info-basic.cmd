tracekit info tests/data/xray/pass/mtpool.basic
