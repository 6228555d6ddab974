# the files hottest first (their self cost), each with its share of the total
tracekit annotate -I tests/data/callgrind/prog tests/data/callgrind/pass/demo-default.out | grep '^================'
