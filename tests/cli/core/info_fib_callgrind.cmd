tracekit info examples/fib.callgrind | head -3
