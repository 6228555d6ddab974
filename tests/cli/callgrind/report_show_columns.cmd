tracekit report --show Dr,Ir --top 3 tests/data/callgrind/pass/demo-cache.out
