tracekit check --from callgrind tests/data/callgrind/fail/binary-garbage.out 2>&1 | head -3
