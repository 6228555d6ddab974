tracekit report examples/fib-xray.bin
