tracekit convert --to dot tests/data/folded/pass/handwritten.folded
