tracekit info tests/data/folded/pass/handwritten.folded
