# annotate --show EV[,EV]: callgrind_annotate's --show, as report's (annotate's --event before):
# only those events' columns, the first the one the files' shares and --threshold measure
tracekit annotate --show Dr,Ir -I tests/data/callgrind/prog --file demo.c --context 0 tests/data/callgrind/pass/demo-cache.out | sed -n 1,12p
tracekit annotate --show Ir,Xx tests/data/callgrind/pass/demo-cache.out; echo "exit $?"
