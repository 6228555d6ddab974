tracekit check tests/data/folded/fail/no-count.folded tests/data/folded/fail/empty-stack.folded tests/data/folded/fail/count-over-64-bits.folded
