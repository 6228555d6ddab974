tracekit report --cycles --by file tests/data/callgrind/pass/mutual.out
tracekit report --cycles --tree both tests/data/callgrind/pass/mutual.out
