tracekit dump tests/data/xray/pass/calltree.basic -m tests/data/xray/bin/calltree | sed -n 1,40p
