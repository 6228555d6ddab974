tracekit report --tree both --top 4 examples/fib.callgrind
