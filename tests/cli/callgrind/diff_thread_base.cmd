# diff of the empty base file of valgrind --separate-threads=yes: no profile to compare, said so
# (it read before as a profile of no cost, every function "new")
tracekit diff tests/data/callgrind/pass/threads-sep.out tests/data/callgrind/pass/threads-sep.out-01
