tracekit check tests/data/xray/pass/calltree-emutsc.basic
