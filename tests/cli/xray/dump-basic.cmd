tracekit dump tests/data/xray/pass/calltree.basic -m tests/data/xray/bin/calltree | head -40
