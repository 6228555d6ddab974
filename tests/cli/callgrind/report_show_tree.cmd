tracekit report --show D1mr --sort D1mr --tree caller --top 2 tests/data/callgrind/pass/demo-cache.out
