gzip -c tests/data/xray/pass/mtpool.fdr | tracekit report - -m tests/data/xray/bin/mtpool --top 3
