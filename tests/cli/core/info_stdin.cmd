# standard input, plain and compressed (streamed, not mapped)
tracekit info - < examples/fib.callgrind | head -3
gzip -c examples/fib.xray | tracekit info - | head -3
