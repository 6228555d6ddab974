tracekit check --from callgrind tests/data/callgrind/fail/binary-garbage.out 2>&1 | sed -n 1,3p
