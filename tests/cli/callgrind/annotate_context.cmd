# --context N: the source lines shown around a costed one (callgrind_annotate's --context); 0:
# the costed lines only
tracekit annotate --context 1 --file work.c -I tests/data/callgrind/prog tests/data/callgrind/pass/demo-default.out | tail -n +7
tracekit annotate --context 0 --file work.c -I tests/data/callgrind/prog tests/data/callgrind/pass/demo-default.out | tail -n +7
