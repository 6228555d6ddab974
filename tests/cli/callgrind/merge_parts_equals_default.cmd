tracekit merge tests/data/callgrind/pass/demo-combined.out | tracekit report --top 5 -
