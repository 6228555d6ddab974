tracekit info tests/data/callgrind/pass/demo-combined.out
