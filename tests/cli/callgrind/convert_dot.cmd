tracekit convert --to dot --node-threshold 5 --edge-threshold 2 tests/data/callgrind/pass/demo-default.out
