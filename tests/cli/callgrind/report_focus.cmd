# --focus FUNC: the call tree through FUNC (gprof2dot -z and -l): phase1, what it calls and what
# calls it; not phase2 nor what only phase2 calls
tracekit report --focus phase1 --inclusive tests/data/callgrind/pass/demo-default.out
tracekit report --focus phase1 --tree calling -n 2 tests/data/callgrind/pass/demo-default.out | tail -n +5
tracekit report --focus no_such_function tests/data/callgrind/pass/demo-default.out
