tracekit annotate --instr --threshold 5 tests/data/callgrind/pass/demo-instr.out | grep '^-- \|^(\|^===='
