# difffolded.pl's "stack A B" lines: the counts of each side add up to its total
tracekit diff --format folded tests/data/corpus/callgrind-thirdparty/gprof2dot/compare-test1.callgrind tests/data/corpus/callgrind-thirdparty/gprof2dot/compare-test2.callgrind | sed -n 1,4p
tracekit diff --format folded tests/data/corpus/callgrind-thirdparty/gprof2dot/compare-test1.callgrind tests/data/corpus/callgrind-thirdparty/gprof2dot/compare-test2.callgrind | awk '{ a += $(NF - 1); b += $NF } END { print "sums", a, b, "rows", NR }'
tracekit report tests/data/corpus/callgrind-thirdparty/gprof2dot/compare-test1.callgrind | grep totals
tracekit report tests/data/corpus/callgrind-thirdparty/gprof2dot/compare-test2.callgrind | grep totals
