tracekit report --tree both --format csv examples/fib.callgrind
