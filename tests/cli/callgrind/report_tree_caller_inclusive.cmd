tracekit report --tree caller --inclusive --top 3 --by file-function examples/fib.callgrind
