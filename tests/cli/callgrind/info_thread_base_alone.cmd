# the empty base file alone: explained, with its threads' files beside it
tracekit info tests/data/callgrind/pass/threads-sep.out
