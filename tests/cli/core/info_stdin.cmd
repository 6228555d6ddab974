# standard input, plain and compressed (streamed, not mapped)
tracekit info - < examples/fib.callgrind | sed -n 1,3p
gzip -c examples/fib.xray | tracekit info - | sed -n 1,3p
