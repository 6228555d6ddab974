tracekit slice examples/foo1.wet --static examples/fib.callgrind --criterion 2118:0
