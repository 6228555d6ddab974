# the files of one run of valgrind --separate-threads=yes: the empty base file and its threads'
tracekit info tests/data/callgrind/pass/threads-sep.out tests/data/callgrind/pass/threads-sep.out-01 tests/data/callgrind/pass/threads-sep.out-02 tests/data/callgrind/pass/threads-sep.out-03 | sed -n 1,6p
tracekit info tests/data/callgrind/pass/threads-sep.out tests/data/callgrind/pass/threads-sep.out-01 tests/data/callgrind/pass/threads-sep.out-02 tests/data/callgrind/pass/threads-sep.out-03 | grep '^parts'
