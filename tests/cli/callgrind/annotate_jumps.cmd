# --collect-jumps=yes: the conditional jumps of a line, taken and not taken (KCachegrind's
# jump arrows), the unconditional ones with their count
tracekit annotate -I tests/data/callgrind/prog tests/data/callgrind/pass/demo-jumps.out | sed -n '/^=\+ .*work.c/,/^$/p'
tracekit annotate --function work_sort_ints --instr tests/data/callgrind/pass/demo-jumps.out | sed -n '/^=* instructions/,$p' | sed -n 1,16p
