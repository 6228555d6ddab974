tracekit report --tree both --by file examples/fib.callgrind
