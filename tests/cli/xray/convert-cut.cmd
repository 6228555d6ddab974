# convert, diff, info and dump read a cut trace up to the cut as well, with the same warning
tracekit convert --to folded --weight calls tests/data/xray/fail/mtpool-cut.fdr | sort | sed -n 1,3p
tracekit convert --to chrome tests/data/xray/fail/mtpool-cut.fdr | grep -c '"ph":"X"'
tracekit diff --top 3 tests/data/xray/pass/mtpool.fdr tests/data/xray/fail/mtpool-cut.fdr
tracekit info -v tests/data/xray/fail/mtpool-cut.fdr | sed -n '/^threads/,/^records/p'
tracekit dump tests/data/xray/fail/mtpool-cut.fdr | tail -2
