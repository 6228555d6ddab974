# --per-thread writes several files: -o OUT is needed
tracekit convert --to callgrind --per-thread tests/data/xray/pass/mtpool.fdr
