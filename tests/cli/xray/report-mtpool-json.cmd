tracekit report tests/data/xray/pass/mtpool.fdr -m tests/data/xray/bin/mtpool --format=json --sort=count --top 4
