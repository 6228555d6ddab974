tracekit report --by=object tests/data/callgrind/pass/demo-systime.out --sort sysCount,Ir
