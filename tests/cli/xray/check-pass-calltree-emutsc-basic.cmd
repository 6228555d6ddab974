tracekit check -v tests/data/xray/pass/calltree-emutsc.basic
