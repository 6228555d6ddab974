tracekit report -j 2 --cycles --top 3 tests/data/callgrind/pass/mutual-recs.out tests/data/callgrind/pass/mutual.out tests/data/callgrind/pass/mutual-recs.out
