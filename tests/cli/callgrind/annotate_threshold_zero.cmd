# --all: every file with a cost (--threshold 0 is refused: it would show nothing); fib.callgrind's
# sources are not here: one row each in the table of sources not found
tracekit annotate --all examples/fib.callgrind | sed -n '/^=* sources not found/,/^$/p' | grep -c '^ '
