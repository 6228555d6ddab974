# diff --format csv, as every diff that prints a table has it: the JSON's rows, an event's
# figures in each column, named as report --format csv names them
tracekit diff --format csv --top 3 tests/data/callgrind/pass/demo-every.out tests/data/callgrind/pass/demo-every.out.1
