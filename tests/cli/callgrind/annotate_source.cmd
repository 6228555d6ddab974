tracekit annotate --source-dir tests/data/callgrind/prog --show Ir tests/data/callgrind/pass/demo-default.out | sed -n '1,60p'
