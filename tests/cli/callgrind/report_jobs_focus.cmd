tracekit report -j 2 --focus is_even --tree both --top 6 tests/data/callgrind/pass/mutual.out tests/data/callgrind/pass/mutual-recs.out
