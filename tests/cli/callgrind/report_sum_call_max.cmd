tracekit report --inclusive tests/data/callgrind/fail/sum-call-max.out
