tracekit check tests/data/xray/pass/calltree.basic
