tracekit annotate --threshold 101 examples/fib.callgrind
