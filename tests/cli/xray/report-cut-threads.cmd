# a threaded trace cut short (5 bytes into a record): the calls complete before the cut, per
# thread; calls entered but not exited are "open at end"; a warning names the byte; exit 0
tracekit report -m tests/data/xray/bin/mtpool --per-thread --top 6 tests/data/xray/fail/mtpool-cut.fdr
