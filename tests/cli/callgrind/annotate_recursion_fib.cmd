tracekit annotate examples/fib.callgrind | sed -n '/^=* src\/fib.c/,/^$/p'
