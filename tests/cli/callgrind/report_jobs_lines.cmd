tracekit report -j 2 --by line --format csv --top 30 tests/data/callgrind/pass/demo-every.out tests/data/callgrind/pass/demo-every.out.1 tests/data/callgrind/pass/demo-default.out
