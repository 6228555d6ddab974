# difffolded.pl's "stack A B" lines of two traces of one program (20 and 60 jobs): each side's
# counts are its convert --to folded (self time in ns, or calls), a stack of one side only has 0
tracekit diff --format folded -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.basic tests/data/xray/pass/mtpool.fdr | sed -n 1,4p
tracekit diff --format folded -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.basic tests/data/xray/pass/mtpool.fdr | awk '{ a += $(NF - 1); b += $NF } END { print "sums", a, b, "rows", NR }'
tracekit convert --to folded -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.basic | awk '{ a += $NF } END { print "folded a", a }'
tracekit convert --to folded -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.fdr | awk '{ a += $NF } END { print "folded b", a }'
tracekit diff --format folded --weight calls -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.basic tests/data/xray/pass/mtpool.fdr | grep 'handle_job '
# the differential flame graph of them: each frame's counts in A and B, its share of B and the change
tracekit diff --format svg -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.basic tests/data/xray/pass/mtpool.fdr | grep -o '<title>[^<]*</title>' | sed -n 1,3p
tracekit diff --weight calls tests/data/xray/pass/mtpool.basic tests/data/xray/pass/mtpool.fdr
