# --all: every file with a cost (--threshold 0 is refused: it would show nothing)
tracekit annotate --all examples/fib.callgrind | grep -c '^================'
