tracekit annotate --threshold 0 examples/fib.callgrind | grep -c '^================'
