tracekit convert --to callgrind --per-thread tests/data/xray/pass/mtpool.fdr -m tests/data/xray/bin/mtpool | grep -E '^(thread|pid|part|totals|events)'
