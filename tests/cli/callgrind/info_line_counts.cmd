tracekit info tests/data/callgrind/pass/demo-jumps.out | grep '^part'
# the numbers of call and jump lines: --verbose
tracekit info -v tests/data/callgrind/pass/demo-jumps.out | grep '^part\|lines'
