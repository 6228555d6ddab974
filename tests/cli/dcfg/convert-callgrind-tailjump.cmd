# arcs of the jumps into another routine's entry (ld_start to prog_start, memset@plt to memset)
# and the root's call of ld_start in thread 1, entered by dl_start's return where no call of
# dl_start was made (the thread began inside it): every routine under its thread's root, whose
# total is the thread's, as in the DCFG-Trace's exports (tests/cli/dcfg_trace/*_tailjump)
tracekit convert --to callgrind tests/data/dcfg_trace/pass/tailjump.dcfg.json
