# the same frames as the folded stacks (convert_folded_tailjump): jumps into other routines are
# call arcs, and each thread's top-level frames are the calls of its root "thread TID"
tracekit convert --to callgrind --dcfg tests/data/dcfg_trace/pass/tailjump.dcfg.json tests/data/dcfg_trace/pass/tailjump.trace.json
