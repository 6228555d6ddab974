tracekit info examples/fib.callgrind | sed -n 1,3p
