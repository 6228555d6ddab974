tracekit instr-map tests/data/xray/bin/calltree-typed
