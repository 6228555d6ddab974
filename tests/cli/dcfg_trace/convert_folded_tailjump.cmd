# jumps into other routines (ld.so's jump to _start, a PLT stub's jump to memset) open frames
# under the jumping routine; thread 1 begins inside dl_start, whose return makes ld_start the
# thread's next top-level frame: every instruction in a frame of its own routine
tracekit convert --to folded --per-thread --dcfg tests/data/dcfg_trace/pass/tailjump.dcfg.json tests/data/dcfg_trace/pass/tailjump.trace.json
