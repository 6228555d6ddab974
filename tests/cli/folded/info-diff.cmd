tracekit info tests/data/folded/pass/small.diff.folded
