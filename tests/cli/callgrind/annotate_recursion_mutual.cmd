tracekit annotate --source-dir tests/data/callgrind/prog tests/data/callgrind/pass/mutual.out | sed -n '/mutual.c (/,/^$/p'
