tracekit annotate --instr tests/data/callgrind/pass/spec-features.out
