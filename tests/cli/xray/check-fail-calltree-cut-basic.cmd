tracekit check tests/data/xray/fail/calltree-cut.basic
