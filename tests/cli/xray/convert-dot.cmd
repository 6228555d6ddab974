tracekit convert --to dot --instr-map examples/fib-xray.bin examples/fib.xray
