tracekit report tests/data/xray/pass/mtpool.basic -m tests/data/xray/bin/mtpool --sort=func
