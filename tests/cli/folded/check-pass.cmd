tracekit check tests/data/folded/pass/handwritten.folded
