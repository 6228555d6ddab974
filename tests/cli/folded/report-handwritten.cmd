tracekit report tests/data/folded/pass/handwritten.folded
