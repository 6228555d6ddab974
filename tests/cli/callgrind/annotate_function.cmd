# --function: the lines of that function (and of its contexts fib'2, ...) only
tracekit annotate --function fib -I tests/data/callgrind/prog tests/data/callgrind/pass/demo-recs.out | tail -n +7
tracekit annotate --function work_apply --instr tests/data/callgrind/pass/demo-instr.out | sed -n '/^=* instructions/,$p'
