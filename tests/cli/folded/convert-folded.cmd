tracekit convert --to folded tests/data/folded/pass/handwritten.folded
