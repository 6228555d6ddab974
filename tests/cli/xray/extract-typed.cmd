tracekit extract tests/data/xray/bin/calltree-typed
