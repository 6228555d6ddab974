gzip -c tests/data/callgrind/pass/demo-jumps.out | tracekit info --from callgrind - | grep '^part\|totals'
