tracekit report --instr-map examples/fib-xray.bin --sort count --order asc examples/fib.xray
