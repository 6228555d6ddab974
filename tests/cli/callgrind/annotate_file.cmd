# --file: that file only (its last components are enough), also without its source: per line
tracekit annotate --file dl-tunables.c tests/data/callgrind/pass/demo-default.out | tail -n +6
tracekit annotate --file inl.h -I tests/data/callgrind/prog tests/data/callgrind/pass/demo-default.out | tail -n +7
tracekit annotate --file no-such-file.c tests/data/callgrind/pass/demo-default.out | tail -n +7
