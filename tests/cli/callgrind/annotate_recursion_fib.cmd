tracekit annotate --file src/fib.c examples/fib.callgrind | sed -n '/^=* src\/fib.c/,/^$/p'
