tracekit report --sort Nope tests/data/callgrind/pass/demo-default.out
