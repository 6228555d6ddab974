tracekit report --show Ir,Xx tests/data/callgrind/pass/demo-cache.out
