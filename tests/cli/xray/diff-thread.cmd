# --thread in each trace (two runs' thread ids differ: the second has none of this one); the
# names of the rows come from the second trace's session, read through its thread filter
tracekit diff --thread 6260 -n 3 -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.fdr tests/data/xray/pass/mtpool-emutsc.fdr
tracekit diff --format folded --thread 6260 -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.fdr tests/data/xray/pass/mtpool-emutsc.fdr | sed -n 1,3p
