tracekit info examples/fib.xray | sed -n 1,3p
