tracekit report --tree calling --format json --top 2 examples/fib.callgrind
