# a source shorter than its costed lines (another version of the file): the lines past its end
# are counted
tracekit annotate --file main.c -I tests/data/callgrind/short tests/data/callgrind/pass/spec-features.out | tail -n +7
