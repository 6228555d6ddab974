tracekit info examples/fib.xray | head -3
