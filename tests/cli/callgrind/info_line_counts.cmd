tracekit info tests/data/callgrind/pass/demo-jumps.out | grep '^part'
